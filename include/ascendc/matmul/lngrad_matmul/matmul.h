// lngrad Ascend C Matmul: AscendC::Matmul on the simulated cube (layer matmul, issue 29).
//
// The object runs on the calling block: every lngrad block is a vector core that also owns a
// cube (L1/L0A/L0B/L0C/BiasTable), so a kernel written for the cube (__cube__, ASCENDC_CUBE_ONLY)
// or for the vector side of a mixed kernel computes its C blocks where it calls Iterate, with no
// message to another core. Init takes the kernel's TCubeTiling (any struct with its fields) and
// allocates L0A, L0B, L0C and the BiasTable from the TPipe; each base block of C is an engine
// call (lngrad_matmul/engine.h). docs/ascendc_kernels.md, "The Matmul API".
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "lngrad_aicore/cores.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/sync.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_matmul/config.h"
#include "lngrad_matmul/engine.h"
#include "lngrad_matmul/state.h"

namespace AscendC {

// The vendor's policies name how the cube schedules its loads and buffers (MatmulPolicy, the
// N-buffer and split-M forms): lngrad runs each through the one engine, so they are names only.
// The triangle policies compute only C's blocks on and above (upper) or below (lower) the
// diagonal of base blocks (kTriangle); the split-M policy gives each AIV of a 1:2 AI core half of
// the rows of every block it takes into its UB (kSplitM).
namespace Impl {
inline constexpr int32_t QUEUE_DEPTH = 1;
namespace Detail {
#define LNGRAD_MATMUL_POLICY(Name, triangle, split_m)                                             \
  template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, \
            typename BIAS_TYPE>                                                                   \
  struct Name {                                                                                   \
    static constexpr int kTriangle = triangle;                                                    \
    static constexpr bool kSplitM = split_m;                                                      \
  };
LNGRAD_MATMUL_POLICY(MatmulPolicy, 0, false)
LNGRAD_MATMUL_POLICY(SplitMMatmulPolicy, 0, true)
LNGRAD_MATMUL_POLICY(NBuffer33MatmulPolicy, 0, false)
LNGRAD_MATMUL_POLICY(TrianUpperMatmulPolicy, 1, false)
LNGRAD_MATMUL_POLICY(TrianLowerMatmulPolicy, -1, false)
LNGRAD_MATMUL_POLICY(MatmulWithScalePolicy, 0, false)
#undef LNGRAD_MATMUL_POLICY
}  // namespace Detail
}  // namespace Impl

// The Matmul utilities kernels call by name: integer Ceil and CeilAlign (num2 > 0), and
// Std::forward beside the Std tuple vocabulary.
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
constexpr T Ceil(T num1, T num2) {
  return (num1 + num2 - 1) / num2;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
constexpr T CeilAlign(T num1, T num2) {
  return Ceil(num1, num2) * num2;
}
namespace Std {
using std::forward;
}  // namespace Std

// The L0C type of a Matmul on A's type: int32 for integer A, float otherwise.
template <typename T>
struct GetMmDstType {
  using Type = std::conditional_t<std::is_integral_v<T>, int32_t, float>;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY =
              Impl::Detail::MatmulPolicy>
class Matmul {
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  static constexpr bool kIntA = std::is_integral_v<SrcAT> || std::is_same_v<SrcAT, int4b_t>;
  static constexpr lngrad::cube::Elem kAcc = std::is_floating_point_v<DstT> || !kIntA
                                                 ? lngrad::cube::Elem::kF32
                                                 : lngrad::cube::Elem::kS32;

 public:
  // A null tiling takes the constant tiling of MM_CFG (a MatmulApiStaticTiling). Init again
  // with no TPipe (after REGIST_MATMUL_OBJ: the vendor's AIV sends the cube a new tiling) keeps
  // the memories taken the first time, which must hold the new base blocks.
  template <class Tiling>
  void Init(const Tiling* cubeTiling, TPipe* tpipe = nullptr) {
    InitSharing(cubeTiling, tpipe, nullptr);
  }
  // lngrad: Init for REGIST_MATMUL_OBJ; `shared`: the L0A, L0B, L0C and BiasTable of an earlier
  // object with isA2B2Shared, which an isA2B2Shared object uses instead of its own (lngrad's
  // Matmul holds L0 only from Iterate to its GetTensorC, so objects sharing L0A/L0B share L0C
  // too: one object's block must be taken out before another's Iterate).
  template <class Tiling>
  void InitSharing(const Tiling* cubeTiling, TPipe* tpipe, const lngrad::matmul::Buffers* shared) {
    if (tpipe == nullptr && pipe_ == nullptr) lngrad::matmul::Fail("Init", "no TPipe");
    if (cubeTiling != nullptr) {
      shape_ = lngrad::matmul::ShapeOf(*cubeTiling);
    } else if constexpr (kConstant) {
      shape_ = lngrad::matmul::ShapeOf(MM_CFG);
      shape_.bias = lngrad::matmul::ConfigOf(MM_CFG).enableSetBias;
    } else {
      lngrad::matmul::Fail("Init",
                           "a null tiling needs a constant tiling (MatmulApiStaticTiling) "
                           "as the configuration");
    }
    lngrad::matmul::CheckShape(shape_, "Init");
    const uint32_t bm = lngrad::matmul::AlignUp(shape_.base_m, 16);
    const uint32_t bn = lngrad::matmul::AlignUp(shape_.base_n, 16);
    const uint32_t bk = lngrad::matmul::AlignUp(shape_.base_k, 64);
    if (tpipe == nullptr) {
      if (bm > taken_.base_m || bn > taken_.base_n || bk > taken_.base_k ||
          (shape_.bias && !taken_.bias))
        lngrad::matmul::Fail("Init", "the new tiling's base blocks exceed those of the first Init");
      ended_ = false;
      Reset();
      return;
    }
    pipe_ = tpipe;
    taken_ = {.base_m = bm, .base_n = bn, .base_k = bk, .bias = shape_.bias};
    TakeMemories(tpipe, kA2B2Shared ? shared : nullptr);
    if constexpr (kDequant) tpipe->InitBuffer(deq_, lngrad::matmul::AlignUp(taken_.base_n * 8, 32));
    // The copy callbacks' L1 tiles: baseM x baseK of A, baseK x baseN of B.
    if constexpr (kCopyA1 != nullptr)
      tpipe->InitBuffer(l1a_, lngrad::matmul::AlignUp(bm * bk * kBitsA / 8, 512));
    if constexpr (kCopyB1 != nullptr)
      tpipe->InitBuffer(l1b_, lngrad::matmul::AlignUp(bn * bk * kBitsB / 8, 512));
    if constexpr (kMx) tpipe->InitBuffer(l1mx_, std::max(bm, bn) / 16 * (bk / 64) * 32);
    inited_ = true;
    ended_ = false;
  }
  // What the next object of REGIST_MATMUL_OBJ shares: this one's memories if it shares them
  // and is the first, else the earlier ones.
  const lngrad::matmul::Buffers* A2B2Memories(const lngrad::matmul::Buffers* shared) const {
    return kA2B2Shared && shared == nullptr ? &memories_ : shared;
  }
  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    Require("SetTensorA");
    a_ = {reinterpret_cast<const std::byte*>(gm.GetPhyAddr()), gm.GetSize()};
    transA_ = isTransposeA;
    hasA_ = true;
    Reset();
  }
  // A in a local tensor (A_TYPE's position VECOUT, VECIN or TSCM): read where it lies (its size
  // in elements: two 4-bit ones to a byte).
  void SetTensorA(const LocalTensor<SrcAT>& local, bool isTransposeA = false) {
    Require("SetTensorA");
    a_ = {local.View().ptr, local.View().size_bytes * 8 / kBitsA, IsUbPosition(A_TYPE::pos)};
    transA_ = isTransposeA;
    hasA_ = true;
    Reset();
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    Require("SetTensorB");
    b_ = {reinterpret_cast<const std::byte*>(gm.GetPhyAddr()), gm.GetSize()};
    transB_ = isTransposeB;
    hasB_ = true;
    Reset();
  }
  void SetTensorB(const LocalTensor<SrcBT>& local, bool isTransposeB = false) {
    Require("SetTensorB");
    b_ = {local.View().ptr, local.View().size_bytes * 8 / kBitsB, IsUbPosition(B_TYPE::pos)};
    transB_ = isTransposeB;
    hasB_ = true;
    Reset();
  }
  // MX: A's scales (M x ceil(K / 64) x 2 codes; transposed: pairs of groups, M in between) and
  // B's (pairs of groups with N in between; transposed: N x ceil(K / 64) x 2).
  // NZ scales (SCALE_FORMAT NZ): fractals of 16 rows x 2 groups (lngrad_matmul/engine.h). A
  // local tensor (TSCM, VECOUT) holds the single-core shape's scales.
  void SetTensorScaleA(const GlobalTensor<fp8_e8m0_t>& gm, bool isTransposeScaleA = false) {
    SetScale<A_TYPE>(mxA_, gm.GetPhyAddr(), isTransposeScaleA, false, "SetTensorScaleA");
  }
  void SetTensorScaleA(const LocalTensor<fp8_e8m0_t>& local, bool isTransposeScaleA = false) {
    SetScale<A_TYPE>(mxA_, local.View().ptr, isTransposeScaleA, true, "SetTensorScaleA");
  }
  void SetTensorScaleB(const GlobalTensor<fp8_e8m0_t>& gm, bool isTransposeScaleB = false) {
    SetScale<B_TYPE>(mxB_, gm.GetPhyAddr(), !isTransposeScaleB, false, "SetTensorScaleB");
  }
  void SetTensorScaleB(const LocalTensor<fp8_e8m0_t>& local, bool isTransposeScaleB = false) {
    SetScale<B_TYPE>(mxB_, local.View().ptr, !isTransposeScaleB, true, "SetTensorScaleB");
  }
  // 2:4 sparse B (SparseMatmulType): its index matrix (lngrad_matmul/engine.h).
  void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal) {
    Require("SetSparseIndex");
    static_assert(kSparse, "SetSparseIndex: B must be a SparseMatmulType");
    index_ = reinterpret_cast<const std::byte*>(indexGlobal.GetPhyAddr());
  }
  void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
    Require("SetBias");
    if (!shape_.bias)
      lngrad::matmul::Fail("SetBias", "the tiling has isBias 0 (EnableBias on the host)");
    bias_ = biasGlobal;
    hasBias_ = true;
  }
  // int8 A and B to half C: the scale every element of C is multiplied by (the low 32 bits: a
  // float of which the cube uses sign, exponent and 10 mantissa bits), or one per column.
  void SetQuantScalar(uint64_t quantScalar) {
    Require("SetQuantScalar");
    RequireDequant("SetQuantScalar");
    deqScalar_ = quantScalar;
    deqVector_ = nullptr;
  }
  void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
    Require("SetQuantVector");
    RequireDequant("SetQuantVector");
    deqVector_ = quantTensor.GetPhyAddr();
    deqVectorSize_ = quantTensor.GetSize();
  }
  // What the copy callbacks receive as tilingPtr and dataPtr.
  void SetUserDefInfo(uint64_t tilingPtr) { userDefInfo_ = tilingPtr; }
  void SetSelfDefineData(uint64_t dataPtr) { selfDefineData_ = dataPtr; }
  void DisableBias() { hasBias_ = false; }
  void ClearBias() { hasBias_ = false; }
  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    Require("SetOrgShape");
    (void)orgKc;
    shape_.org_m = static_cast<uint32_t>(orgM);
    shape_.org_n = static_cast<uint32_t>(orgN);
    shape_.org_ka = static_cast<uint32_t>(orgKa);
    shape_.org_kb = static_cast<uint32_t>(orgKb);
    // A constant tiling's single-core shape is its maximum; SetTail sets the real one next.
    if (kConstant) {
      shape_.single_m = std::min(shape_.single_m, shape_.org_m);
      shape_.single_n = std::min(shape_.single_n, shape_.org_n);
      shape_.single_k = std::min(shape_.single_k, std::min(shape_.org_ka, shape_.org_kb));
    }
    lngrad::matmul::CheckShape(shape_, "SetOrgShape");
  }
  void SetSingleShape(int singleM, int singleN, int singleK) { SetTail(singleM, singleN, singleK); }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    Require("SetTail");
    if (tailM > 0) shape_.single_m = static_cast<uint32_t>(tailM);
    if (tailN > 0) shape_.single_n = static_cast<uint32_t>(tailN);
    if (tailK > 0) shape_.single_k = static_cast<uint32_t>(tailK);
    lngrad::matmul::CheckShape(shape_, "SetTail");
    Reset();
  }
  // The workspaces the vendor's Matmul stages C in (async GetTensorC, UB scratch): lngrad
  // writes C straight to its destination, so they are accepted and not used.
  template <class T>
  void SetLocalWorkspace(const LocalTensor<T>&) {}
  template <class T>
  void SetWorkspace(const GlobalTensor<T>& ws) {
    ws_.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(const_cast<T*>(ws.GetPhyAddr())),
                        ws.GetSize() * sizeof(T) / sizeof(DstT));
  }
  template <class T>
  void SetWorkspace(__gm__ const T*, int) {}

  // sync: the next base block of C into L0C; false once every block was computed. Not sync
  // (Iterate<false>): every block is started, and each GetTensorC<false> then takes the next.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    (void)enPartialSum;
    RequireOperands("Iterate");
    async_ = !sync;
    if (!sync) {
      cursor_ = {};
      return true;
    }
    return Advance();
  }
  // The next block into the caller's L0C tensor (CO1), which the caller then moves out itself
  // (Fixpipe); false once every block was computed.
  template <bool sync = true, class L0cT>
  bool Iterate(bool enPartialSum, const LocalTensor<L0cT>& localCmatrix) {
    static_assert(sizeof(L0cT) == 4, "Iterate: the L0C tensor holds float or int32_t");
    l0cUser_ = localCmatrix.View();
    const bool more = Iterate<sync>(enPartialSum);
    l0cUser_ = {};
    return more;
  }
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    RequireOperands("GetTensorC");
    if (!sync) NextAsync();
    WriteGm(gm, enAtomic != 0, enSequentialWrite);
  }
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    RequireOperands("GetTensorC");
    if (!sync) NextAsync();
    (void)enAtomic;
    lngrad::matmul::Output o = OutputOf(false, false);
    o.data = reinterpret_cast<std::byte*>(const_cast<std::byte*>(co2Local.View().ptr));
    o.ld = kFmtC == lngrad::matmul::Fmt::kNz       ? lngrad::matmul::AlignUp(shape_.base_m, 16)
           : kFmtC == lngrad::matmul::Fmt::kColumn ? shape_.base_m
                                                   : shape_.base_n;
    // A sequential ND block is n columns wide (ND_ALIGN: rounded up to 32 bytes).
    if (enSequentialWrite && kFmtC == lngrad::matmul::Fmt::kNd) o.ld = n_;
    if (enSequentialWrite && kFmtC == lngrad::matmul::Fmt::kNdAlign)
      o.ld = lngrad::matmul::AlignUp(n_, 32 / sizeof(DstT));
    lngrad::matmul::RowShare share{0, m_};
    if constexpr (kSplitM && IsUbPosition(C_TYPE::pos)) share = lngrad::matmul::SplitMShare(m_);
    o.l0c_row0 = share.first;
    o.l0c_m = m_;
    CheckLocal(co2Local, o, share.rows);
    if (share.rows != 0) Write(o, share.rows);
  }
  // Every block of C to gm; not sync (IterateAll<false>) completes here too, so WaitIterateAll
  // has nothing left to wait for.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)waitIterateAll;
    (void)fakeMsg;
    RequireOperands("IterateAll");
    cursor_ = {};
    while (Advance()) WriteGm(gm, enAtomic != 0, enSequentialWrite);
  }
  void WaitIterateAll() {}
  // The AIV the object serves on the device's AIC (its messages' sender): kept, and used by
  // nothing here (each lngrad core computes its own requests).
  void SetSubBlockIdx(uint8_t subBlockIdx) { subBlockIdx_ = subBlockIdx; }
  uint8_t GetSubBlockIdx() const { return subBlockIdx_; }

  // Batch Matmul: C's max(batchA, batchB) matrices (batchA of A and batchB of B broadcast in
  // blocks) in the layouts of A_TYPE, B_TYPE and C_TYPE, the tiling's axes and single shape.
  template <bool sync = true>
  void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
                    bool enSequentialWrite, uint32_t matrixStrideA = 0, uint32_t matrixStrideB = 0,
                    uint32_t matrixStrideC = 0, bool enPartialSum = false, uint8_t enAtomic = 0) {
    (void)enPartialSum;
    RequireOperands("IterateBatch");
    if (enSequentialWrite)
      lngrad::matmul::Fail("IterateBatch", "C in GM takes enSequentialWrite false");
    Batches(gm, batchA, batchB, {matrixStrideA, matrixStrideB, matrixStrideC}, enAtomic != 0);
  }
  // batchLoop IterateBatch calls, the operands and C (the workspace, SetWorkspace) moving on by
  // batchA, batchB and max(batchA, batchB) matrices each time.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                     uint32_t matrixStrideA = 0, uint32_t matrixStrideB = 0,
                     uint32_t matrixStrideC = 0) {
    (void)enSequentialWrite;
    RequireOperands("IterateNBatch");
    if (ws_.GetPhyAddr() == nullptr)
      lngrad::matmul::Fail("IterateNBatch", "C goes to the workspace: SetWorkspace comes first");
    const uint32_t strides[3] = {matrixStrideA, matrixStrideB, matrixStrideC};
    const uint32_t batchC = std::max(batchA, batchB);
    for (uint32_t i = 0; i < batchLoop; ++i) {
      Batches(ws_, batchA, batchB, {strides[0], strides[1], strides[2]}, false,
              {i * batchA, i * batchB, i * batchC});
    }
  }
  // IterateNBatch's C is in the workspace already: nothing is left to move.
  template <bool sync = true>
  void GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false) {
    (void)batchA, (void)batchB, (void)enSequentialWrite;
    RequireOperands("GetBatchTensorC");
  }
  void WaitIterateBatch() {}
  void End() {
    Require("End");
    ended_ = true;
  }

 private:
  template <class T>
  static constexpr bool kNibbles = std::is_same_v<T, int4b_t> || std::is_same_v<T, fp4x2_e2m1_t> ||
                                   std::is_same_v<T, fp4x2_e1m2_t>;
  static constexpr uint32_t kBitsA = kNibbles<SrcAT> ? 4 : sizeof(SrcAT) * 8;
  static constexpr uint32_t kBitsB = kNibbles<SrcBT> ? 4 : sizeof(SrcBT) * 8;
  // fp8/fp4 A and B (MatmulTypeWithScale, or plain fp8 with every scale 1) run through MmadMx.
  template <class T>
  static constexpr bool kMxElem = kNibbles<T> && !std::is_same_v<T, int4b_t>;
  static constexpr bool kSparse = requires { B_TYPE::indexPosition; };
  static constexpr bool kMx =
      kMxElem<SrcAT> || std::is_same_v<SrcAT, fp8_e4m3fn_t> || std::is_same_v<SrcAT, fp8_e5m2_t>;
  static constexpr lngrad::matmul::Fmt kFmtA = lngrad::matmul::FmtOf(A_TYPE::format);
  static constexpr lngrad::matmul::Fmt kFmtB = lngrad::matmul::FmtOf(B_TYPE::format);
  static constexpr lngrad::matmul::Fmt kFmtC = lngrad::matmul::FmtOf(C_TYPE::format);
  // isEnableChannelSplit: float C in NZ to GM goes out in blocks of 8 columns (Fixpipe's
  // channel split) instead of 16.
  static constexpr bool kChannelSplit = lngrad::matmul::ConfigOf(MM_CFG).isEnableChannelSplit &&
                                        kFmtC == lngrad::matmul::Fmt::kNz &&
                                        std::is_same_v<DstT, float> && C_TYPE::pos == TPosition::GM;
  static constexpr bool kConstant = requires { MM_CFG.cfg; };
  // isPartialOutput: each Iterate computes one baseK slice of a block, not its sum over K.
  static constexpr bool kPartial = lngrad::matmul::ConfigOf(MM_CFG).isPartialOutput;
  // Batch Matmul: one bias row per batch (isBiasBatch), else one for all.
  static constexpr bool kBiasBatch = lngrad::matmul::ConfigOf(MM_CFG).isBiasBatch;
  static constexpr bool kA2B2Shared = lngrad::matmul::ConfigOf(MM_CFG).isA2B2Shared;
  static constexpr auto kCopyA1 = MM_CB::CopyA1Ptr;
  static constexpr auto kCopyB1 = MM_CB::CopyB1Ptr;
  // int8 inputs to half C go out through Fixpipe's dequantisation (DEQF16/VDEQF16).
  static constexpr bool kDequant = kAcc == lngrad::cube::Elem::kS32 && std::is_same_v<DstT, half>;
  using Policy = MATMUL_POLICY<MM_CFG, Matmul, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>;
  static constexpr int kTriangle = Policy::kTriangle;
  static constexpr bool kSplitM = Policy::kSplitM || (A_TYPE::ibShare && B_TYPE::ibShare);

  void Require(const char* api) const {
    if (!inited_) lngrad::matmul::Fail(api, "called before Init (REGIST_MATMUL_OBJ)");
    if (ended_) lngrad::matmul::Fail(api, "called after End");
  }
  void RequireOperands(const char* api) const {
    Require(api);
    if (!hasA_ || !hasB_) lngrad::matmul::Fail(api, "SetTensorA and SetTensorB come first");
  }
  void RequireDequant(const char* api) const {
    if (!kDequant) lngrad::matmul::Fail(api, "only a Matmul of int8 A and B to half C dequantises");
  }
  // The block's per-column scales into L1 for VDEQF16.
  const lngrad::matmul::View* DequantValues(uint32_t n0) {
    if (deqVector_ == nullptr) return nullptr;
    if (deqVectorSize_ != 0 && deqVectorSize_ < n0 + n_)
      lngrad::matmul::Fail("SetQuantVector", "the quant tensor is shorter than N");
    LocalTensor<uint64_t> v = deq_.template Get<uint64_t>();
    for (uint32_t j = 0; j < n_; ++j) v.SetValue(j, deqVector_[n0 + j]);
    deqView_ = v.View();
    return &deqView_;
  }
  void Reset() {
    cursor_ = {};
    async_ = false;
  }
  // A copy callback's tile: `copy` fills the L1 buffer with rows x cols of the operand at tile
  // (row, col) in NZ (`height` rows to a column block), as the vendor's CopyA1/CopyB1 do.
  template <class T, auto copy, class Buf>
  lngrad::matmul::Matrix CallbackTile(Buf& buf, const std::byte* gm, uint32_t row, uint32_t col,
                                      uint32_t rows, uint32_t cols, uint32_t height) {
    const LocalTensor<int8_t> l1 = buf.template Get<int8_t>();
    PipeBarrier<PIPE_ALL>();
    if constexpr (copy != nullptr) {
      copy(l1, gm, static_cast<int>(row), static_cast<int>(col), static_cast<int>(rows),
           static_cast<int>(cols), userDefInfo_, selfDefineData_);
    }
    PipeBarrier<PIPE_ALL>();
    return {l1.View().ptr, lngrad::cube::ElemOf<T>(), lngrad::matmul::Fmt::kNz, false,
            lngrad::matmul::AlignUp(height, 16)};
  }
  // The batch geometry of A (0), B (1) or C (2).
  lngrad::matmul::BatchStep Step(int which, uint32_t user_stride) const {
    constexpr LayoutMode kLayouts[3] = {A_TYPE::layout, B_TYPE::layout, C_TYPE::layout};
    const uint64_t elems[3] = {uint64_t{shape_.single_m} * shape_.single_k,
                               uint64_t{shape_.single_k} * shape_.single_n,
                               uint64_t{shape_.single_m} * shape_.single_n};
    return lngrad::matmul::BatchStepOf(kLayouts[which], shape_.axes[which], elems[which],
                                       user_stride);
  }
  // C's batches [first[2], + max(batchA, batchB)) from A's and B's from first[0] and first[1].
  void Batches(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
               std::array<uint32_t, 3> strides, bool atomic, std::array<uint32_t, 3> first = {}) {
    const lngrad::matmul::Operand a0 = a_, b0 = b_;
    const GlobalTensor<BiasT> bias0 = bias_;
    const lngrad::matmul::BatchStep sa = Step(0, strides[0]), sb = Step(1, strides[1]),
                                    sc = Step(2, strides[2]);
    const uint32_t batchC = std::max(batchA, batchB);
    for (uint32_t c = 0; c < batchC; ++c) {
      const uint32_t qa = first[0] + lngrad::matmul::BatchSource(c, batchC, batchA, "IterateBatch");
      const uint32_t qb = first[1] + lngrad::matmul::BatchSource(c, batchC, batchB, "IterateBatch");
      a_ = a0.At(sa.Offset(qa), sizeof(SrcAT));
      b_ = b0.At(sb.Offset(qb), sizeof(SrcBT));
      a_.ld = sa.ld;
      b_.ld = sb.ld;
      if (hasBias_ && kBiasBatch) bias_ = bias0[(first[2] + c) * shape_.single_n];
      ldc_ = sc.ld;
      cursor_ = {};
      while (Advance()) WriteGm(gm[sc.Offset(first[2] + c)], atomic, false);
    }
    a_ = a0;
    b_ = b0;
    bias_ = bias0;
    ldc_ = 0;
  }
  // The next block the policy computes (the triangle policies skip the others); with
  // isPartialOutput, the next baseK slice of the block, then the next block.
  bool Advance() {
    if (kPartial && cursor_.started &&
        ++kSlice_ < lngrad::matmul::CeilDiv(shape_.single_k, shape_.base_k)) {
      Compute();
      return true;
    }
    kSlice_ = 0;
    while (cursor_.Next(shape_)) {
      if (kTriangle > 0 && cursor_.ni < cursor_.mi) continue;
      if (kTriangle < 0 && cursor_.ni > cursor_.mi) continue;
      Compute();
      return true;
    }
    return false;
  }
  void NextAsync() {
    if (!async_) lngrad::matmul::Fail("GetTensorC", "GetTensorC<false> without Iterate<false>");
    if (!Advance()) lngrad::matmul::Fail("GetTensorC", "every block of C was already taken");
  }

  template <class T>
  static lngrad::matmul::Matrix MatrixOf(const lngrad::matmul::Operand& op, lngrad::matmul::Fmt f,
                                         bool trans, uint32_t rows, uint32_t cols) {
    // rows x cols: the logical (untransposed) shape; the stored one is its transpose with trans.
    // COLUMN_MAJOR stores the transpose row by row. An ND operand in the UB of a 950 reaches L1
    // through the AIV's UB -> L1 copy, whose rows start on 32-byte blocks
    // (docs/ascendc_kernels.md).
    if (f == lngrad::matmul::Fmt::kColumn) {
      f = lngrad::matmul::Fmt::kNd;
      trans = !trans;
    }
    const uint32_t sr = trans ? cols : rows, sc = trans ? rows : cols;
    uint64_t ld = op.ld != 0 ? op.ld : lngrad::matmul::LdOf(f, sr, sc);
    if (op.local && f == lngrad::matmul::Fmt::kNd && lngrad::matmul::UbRowsAligned())
      ld = lngrad::matmul::AlignUp(sc, 32 / sizeof(T));
    return {op.data, lngrad::cube::ElemOf<T>(), f, trans, ld};
  }
  void Compute() {
    const uint32_t m0 = cursor_.mi * shape_.base_m, n0 = cursor_.ni * shape_.base_n;
    m_ = std::min(shape_.base_m, shape_.single_m - m0);
    n_ = std::min(shape_.base_n, shape_.single_n - n0);
    const auto a = MatrixOf<SrcAT>(a_, kFmtA, transA_, a_.local ? shape_.single_m : shape_.org_m,
                                   a_.local ? shape_.single_k : shape_.org_ka);
    constexpr uint32_t kDense = kSparse ? 2 : 1;  // sparse B stores half of K
    const auto b =
        MatrixOf<SrcBT>(b_, kFmtB, transB_, (b_.local ? shape_.single_k : shape_.org_kb) / kDense,
                        b_.local ? shape_.single_n : shape_.org_n);
    CheckGm(a, m0 + m_, shape_.single_k, a_.elems, "A");
    CheckGm(b, shape_.single_k / kDense, n0 + n_, b_.elems, "B");
    const lngrad::matmul::Matrix bias{reinterpret_cast<const std::byte*>(bias_.GetPhyAddr()),
                                      lngrad::cube::ElemOf<BiasT>(), lngrad::matmul::Fmt::kNd,
                                      false, shape_.org_n};
    if (hasBias_ && bias_.GetSize() < n0 + n_)
      lngrad::matmul::Fail("SetBias", "the bias tensor is shorter than N");
    lngrad::matmul::Block blk{m0, n0, m_, n_, shape_.single_k, shape_.base_k};
    if (kPartial) {  // one baseK slice, the bias (if any) with the first
      blk.k_begin = kSlice_ * shape_.base_k;
      blk.k = std::min(shape_.base_k, shape_.single_k - blk.k_begin);
    }
    const bool bias_here = hasBias_ && blk.k_begin == 0;
    const lngrad::matmul::SliceTile tile_a = [&](uint32_t k0, uint32_t k) {
      return CallbackTile<SrcAT, kCopyA1>(l1a_, a_.data, cursor_.mi, k0 / shape_.base_k, m_, k, m_);
    };
    const lngrad::matmul::SliceTile tile_b = [&](uint32_t k0, uint32_t k) {
      return CallbackTile<SrcBT, kCopyB1>(l1b_, b_.data, k0 / shape_.base_k, cursor_.ni, k, n_, k);
    };
    const lngrad::matmul::MxScales mx = MxScalesNow();
    PipeBarrier<PIPE_ALL>();
    if constexpr (kSparse) {
      if (index_ == nullptr) lngrad::matmul::Fail("Iterate", "a sparse B needs SetSparseIndex");
      lngrad::matmul::ComputeSparseBlock(Buffers(), a, b, index_,
                                         lngrad::matmul::AlignUp(shape_.org_n, 16),
                                         bias_here ? &bias : nullptr, blk);
      PipeBarrier<PIPE_ALL>();
      return;
    }
    lngrad::matmul::ComputeBlock(Buffers(), a, b, bias_here ? &bias : nullptr, kAcc, blk,
                                 lngrad::aicore::SrcLoc::Current(),
                                 kCopyA1 != nullptr ? &tile_a : nullptr,
                                 kCopyB1 != nullptr ? &tile_b : nullptr, kMx ? &mx : nullptr);
    PipeBarrier<PIPE_ALL>();
  }
  // The scales as set, with the geometry of the original shape (a local tensor's: the single-core
  // shape): ceil(Ka / 64) x 2 groups a row.
  lngrad::matmul::MxScales MxScalesNow() const {
    auto scale = [&](const lngrad::matmul::MxSource& s, uint32_t org_rows, uint32_t single_rows) {
      const uint64_t groups =
          lngrad::matmul::CeilDiv(s.local ? shape_.single_k : shape_.org_ka, 64) * 2;
      const bool pairs = s.layout == lngrad::matmul::MxLayout::kPairs;
      return lngrad::matmul::MxScale{s.data, s.layout,
                                     pairs ? (s.local ? single_rows : org_rows) : groups, groups};
    };
    return {scale(mxA_, shape_.org_m, shape_.single_m), scale(mxB_, shape_.org_n, shape_.single_n)};
  }
  template <class TYPE, class T>
  void SetScale(lngrad::matmul::MxSource& s, const T* data, bool pairs, bool local,
                const char* api) {
    Require(api);
    static_assert(kMx, "SetTensorScaleA/B: a Matmul of fp8 or fp4 A and B (MatmulTypeWithScale)");
    s = {reinterpret_cast<const std::byte*>(data),
         pairs ? lngrad::matmul::MxLayout::kPairs : lngrad::matmul::MxLayout::kRows, local};
    if constexpr (requires { TYPE::scaleFormat; }) {
      if (TYPE::scaleFormat == CubeFormat::NZ) s.layout = lngrad::matmul::MxLayout::kNz;
    }
  }
  static void CheckGm(const lngrad::matmul::Matrix& m, uint32_t rows, uint32_t cols, uint64_t size,
                      const char* what) {
    const uint32_t sr = m.trans ? cols : rows, sc = m.trans ? rows : cols;
    const uint64_t need =
        m.fmt == lngrad::matmul::Fmt::kNz
            ? (uint64_t{lngrad::matmul::CeilDiv(sc, 256 / kBitsA)}) * m.ld * (256 / kBitsA)
            : uint64_t{sr - 1} * m.ld + sc;
    if (size != 0 && need > size) {
      lngrad::matmul::Fail("Iterate", std::string(what) + " reads " + std::to_string(need) +
                                          " elements past a tensor of " + std::to_string(size) +
                                          " (shapes beyond the tensor or the tiling)");
    }
  }
  // L0A, L0B, L0C and the BiasTable for the base blocks of taken_: from the TPipe, or the
  // shared ones when they are large enough.
  void TakeMemories(TPipe* tpipe, const lngrad::matmul::Buffers* shared) {
    const uint32_t bm = taken_.base_m, bn = taken_.base_n, bk = taken_.base_k;
    const uint32_t bytes[4] = {lngrad::matmul::AlignUp(bm * bk * kBitsA / 8, 512),
                               lngrad::matmul::AlignUp(bn * bk * kBitsB / 8, 512),
                               lngrad::matmul::AlignUp(bm * bn * 4, 1024),
                               taken_.bias ? lngrad::matmul::AlignUp(bn * 4, 64) : 0};
    if (shared != nullptr) {
      const lngrad::matmul::View* v[4] = {&shared->l0a, &shared->l0b, &shared->l0c, &shared->bt};
      for (int i = 0; i < 4; ++i)
        if (bytes[i] > v[i]->size_bytes)
          lngrad::matmul::Fail("Init",
                               "isA2B2Shared: the base blocks exceed the L0 memories of "
                               "the first object that shares them");
      memories_ = *shared;
      return;
    }
    tpipe->InitBuffer(l0a_, bytes[0]);
    tpipe->InitBuffer(l0b_, bytes[1]);
    tpipe->InitBuffer(l0c_, bytes[2]);
    memories_ = {l0a_.template Get<uint8_t>().View(),
                 l0b_.template Get<uint8_t>().View(),
                 l0c_.template Get<uint8_t>().View(),
                 {},
                 {}};
    if (taken_.bias) {
      tpipe->InitBuffer(bt_, bytes[3]);
      memories_.bt = bt_.template Get<uint8_t>().View();
    }
  }
  lngrad::matmul::Buffers Buffers() {
    lngrad::matmul::Buffers b = memories_;
    if constexpr (kMx) b.l1mx = l1mx_.template Get<uint8_t>().View();
    if (l0cUser_.ptr != nullptr) b.l0c = l0cUser_;
    return b;
  }
  lngrad::matmul::Output OutputOf(bool gm, bool atomic) {
    lngrad::matmul::Output o;
    o.elem = lngrad::cube::ElemOf<DstT>();
    o.fmt = kFmtC == lngrad::matmul::Fmt::kNdAlign ? lngrad::matmul::Fmt::kNd : kFmtC;
    o.gm = gm;
    o.atomic = atomic;
    o.nz_c0 = kChannelSplit ? 8 : 16;
    if constexpr (kDequant) {
      o.deq_scalar = deqScalar_;
      o.deq_vector = DequantValues(cursor_.ni * shape_.base_n);
    }
    return o;
  }
  void WriteGm(const GlobalTensor<DstT>& gm, bool atomic, bool sequential) {
    if (!cursor_.started) lngrad::matmul::Fail("GetTensorC", "no block: Iterate comes first");
    if (A_TYPE::ibShare && B_TYPE::ibShare && lngrad::matmul::SecondAivOf950()) return;
    lngrad::matmul::Output o = OutputOf(true, atomic);
    uint64_t at = 0;
    if (kFmtC == lngrad::matmul::Fmt::kNz) {
      o.ld =
          sequential ? lngrad::matmul::AlignUp(m_, 16) : lngrad::matmul::AlignUp(shape_.org_m, 16);
      at = sequential ? 0
                      : uint64_t{cursor_.ni * shape_.base_n / o.nz_c0} * o.ld * o.nz_c0 +
                            cursor_.mi * shape_.base_m * o.nz_c0;
    } else if (kFmtC == lngrad::matmul::Fmt::kColumn) {
      o.ld = sequential ? m_ : shape_.org_m;
      at =
          sequential ? 0 : uint64_t{cursor_.ni * shape_.base_n} * o.ld + cursor_.mi * shape_.base_m;
    } else {
      const uint32_t align = kFmtC == lngrad::matmul::Fmt::kNdAlign ? 32 / sizeof(DstT) : 1;
      o.ld = sequential ? n_ : ldc_ != 0 ? ldc_ : lngrad::matmul::AlignUp(shape_.org_n, align);
      at =
          sequential ? 0 : uint64_t{cursor_.mi * shape_.base_m} * o.ld + cursor_.ni * shape_.base_n;
    }
    gm.Access(at, lngrad::matmul::OutputExtent(o, m_, n_), "Matmul::GetTensorC");
    o.data = reinterpret_cast<std::byte*>(const_cast<DstT*>(gm.GetPhyAddr())) + at * sizeof(DstT);
    Write(o);
  }
  void CheckLocal(const LocalTensor<DstT>& t, const lngrad::matmul::Output& o,
                  uint32_t rows) const {
    if (rows != 0 &&
        lngrad::matmul::OutputExtent(o, rows, n_) * sizeof(DstT) > t.View().size_bytes) {
      lngrad::matmul::Fail("GetTensorC", "the local tensor (" +
                                             std::to_string(t.View().size_bytes) +
                                             " bytes) is smaller than the block of " +
                                             std::to_string(rows) + " x " + std::to_string(n_));
    }
  }
  void Write(const lngrad::matmul::Output& o) { Write(o, m_); }
  void Write(const lngrad::matmul::Output& o, uint32_t rows) {
    PipeBarrier<PIPE_ALL>();
    lngrad::matmul::WriteBlock(Buffers(), kAcc, o, rows, n_, lngrad::aicore::SrcLoc::Current());
    PipeBarrier<PIPE_ALL>();
  }

  lngrad::matmul::Shape shape_;
  lngrad::matmul::Shape taken_;  // the aligned base blocks the memories were taken for
  TPipe* pipe_ = nullptr;
  lngrad::matmul::Cursor cursor_;
  uint32_t kSlice_ = 0;  // isPartialOutput: the block's current baseK slice
  uint64_t ldc_ = 0;     // C's row pitch in a batch layout (0: from the shape)
  uint8_t subBlockIdx_ = 0;
  lngrad::matmul::Buffers memories_{};  // L0A, L0B, L0C, BiasTable: its own or shared
  GlobalTensor<DstT> ws_;               // SetWorkspace: IterateNBatch's C
  uint32_t m_ = 0, n_ = 0;
  lngrad::matmul::Operand a_, b_;
  lngrad::matmul::View l0cUser_{};  // Iterate's L0C tensor while it runs
  uint64_t deqScalar_ = 0;
  const uint64_t* deqVector_ = nullptr;
  uint64_t deqVectorSize_ = 0;
  lngrad::matmul::View deqView_{};
  GlobalTensor<BiasT> bias_;
  bool transA_ = false, transB_ = false;
  bool hasA_ = false, hasB_ = false, hasBias_ = false;
  bool inited_ = false, ended_ = false, async_ = false;
  TBuf<TPosition::A2> l0a_;
  TBuf<TPosition::B2> l0b_;
  TBuf<TPosition::CO1> l0c_;
  TBuf<TPosition::C2> bt_;
  TBuf<TPosition::C1> deq_;
  TBuf<TPosition::A1> l1a_;
  TBuf<TPosition::B1> l1b_;
  TBuf<TPosition::A1> l1mx_;            // MX: the stage of one block's scales
  lngrad::matmul::MxSource mxA_, mxB_;  // the scales as set
  const std::byte* index_ = nullptr;    // sparse B's index matrix
  uint64_t userDefInfo_ = 0, selfDefineData_ = 0;
};

}  // namespace AscendC

namespace lngrad::matmul {
// The objects in order; `shared`: the L0 memories of the first isA2B2Shared object, which the
// later ones use.
inline void Register(AscendC::TPipe*, const Buffers*) {}
template <class MM, class Tiling, class... Rest>
void Register(AscendC::TPipe* pipe, const Buffers* shared, MM& mm, const Tiling* tiling,
              Rest&&... rest) {
  mm.InitSharing(tiling, pipe, shared);
  Register(pipe, mm.A2B2Memories(shared), rest...);
}
}  // namespace lngrad::matmul

// The cores of an untyped kernel that registers a Matmul in a file naming ASCENDC_CUBE_ONLY in
// its directives (lngrad-asc): `cube_only` is LNGRAD_MATMUL_STR(ASCENDC_CUBE_ONLY) where the
// kernel is launched, the macro's name itself while it is undefined. Defined: a vector kernel
// (as for a file that defines it unconditionally); else one AIC and two AIVs.
#define LNGRAD_MATMUL_STR2(x) #x
#define LNGRAD_MATMUL_STR(x) LNGRAD_MATMUL_STR2(x)
namespace lngrad::matmul {
constexpr aicore::CoreSplit MixUnlessCubeOnly(std::string_view cube_only) {
  return cube_only == "ASCENDC_CUBE_ONLY" ? aicore::CoreSplit{1, 2, true} : aicore::CoreSplit{};
}
}  // namespace lngrad::matmul

// REGIST_MATMUL_OBJ(tpipe, workspace, mm1, tiling1, mm2, tiling2, ...): Init of each object. On
// the AIC of a mixed kernel (without ASCENDC_CUBE_ONLY) it returns, as the vendor's does after
// serving the AIVs: here each AIV runs its Matmul on its own cube memories.
#ifdef ASCENDC_CUBE_ONLY
#define LNGRAD_MATMUL_AIC_LEAVES() false
#else
#define LNGRAD_MATMUL_AIC_LEAVES() ::lngrad::aicore::AicOfMixedKernel()
#endif
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)               \
  do {                                                         \
    (void)(workspace);                                         \
    if (LNGRAD_MATMUL_AIC_LEAVES()) return;                    \
    ::lngrad::matmul::Register((tpipe), nullptr, __VA_ARGS__); \
  } while (0)
