// lngrad Ascend C tensor API (AscendC::Te, layer cube): copy and Mmad atoms, Copy and Mmad.
//
// MakeCopy(Op{}[, Trait{}]) and MakeMmad(MmadOperation{}, Trait{}) make atoms (constexpr; MakeCopy
// of the operation alone takes its default trait); atom.with(params)
// the same atom with its parameters (MmadParams, FixpipeParams, Img2ColParams). Copy(atom, dst,
// src[, quant]) and Mmad(atom, c, a, b[, bias]) run the cube's own instructions (lngrad_cube/
// cube.h) on the tensors' memories, so the arithmetic, the checks and the sanitizer's pipes are
// theirs (docs/ascendc_kernels.md, "The tensor API"):
//   CopyGM2L1   GM -> L1 (MTE2): ND/DN matrices into NZ or ZN (DataCopy Nd2Nz or Dn2Nz, a ZN
//               destination as the NZ grid of the transpose), ND rows into ND (DataCopy),
//               NHWC/NCHW/NC1HWC0 feature maps into NC1HWC0 (4-bit values as bytes); the MX
//               scales into ZZ / NN (tensor_api/atom/mx_atom.h, with CopyL12L0ScaleA/B).
//   CopyL12L0A  L1 (NZ, ZN) -> L0A (NZ) (LoadData 2D V2, ZN transposed); with Img2ColParams the
//               img2col of an NC1HWC0 map (LoadData 3Dv2).
//   CopyL12L0B  L1 (ZN, NZ) -> L0B (ZN) (LoadData 2D V2, NZ transposed).
//   CopyL12BT   L1 (ND rows) -> BiasTable (DataCopy C1 -> C2; half into float widened).
//   CopyL0C2GM  L0C (NZ) -> GM in ND/NHWC, DN/NCHW or NC1HWC0 (Fixpipe, the conversion the types
//               name: float -> half or bfloat16; int32 -> half and float -> int8 with a
//               per-column quant tensor in L1, VDEQF16 / VQF322B8_PRE).
//   CopyL0C2UB  L0C (NZ) -> the UBs of the AI core's AIVs (Fixpipe isToUB, the trait's dual
//               destination mode); CopyUB2GM  UB -> GM rows (DataCopy).
//   Mmad        the cube's Mmad, or with an MmadType::MX trait its MmadMx (the scales those
//               CopyL12L0ScaleA/B put at A's and B's L0 address / 16).
// Misuse: tensor_api.position (an operand in the wrong memory for the atom) and tensor_api.layout
// (a layout pair the atom does not move) always, tensor_api.alignment (an origin off the fractal
// grid) in checked mode; then the cube's own checks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/data_copy_pad.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_cube/cube.h"
#include "lngrad_cube/mx.h"
#include "tensor_api/tensor/tensor.h"

namespace AscendC::Te {

struct MmadParams {
  constexpr MmadParams() {}
  constexpr MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn,
                       bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  uint8_t unitFlag = 0;
  bool cmatrixInitVal = false;
};
struct FixpipeParams {
  constexpr FixpipeParams() {}
  constexpr FixpipeParams(uint8_t unitFlagIn, bool subBlockIdIn = false)
      : unitFlag(unitFlagIn), subBlockId(subBlockIdIn) {}
  uint8_t unitFlag = 0;
  bool subBlockId = false;
};
template <typename T>
struct Img2ColParams {
  uint16_t mExtension = 0;
  uint16_t kExtension = 0;
  uint8_t padList[4] = {0, 0, 0, 0};
  uint8_t strideW = 1, strideH = 1;
  uint8_t filterW = 1, filterH = 1;
  uint8_t dilationFilterW = 1, dilationFilterH = 1;
  bool filterSizeW = false, filterSizeH = false;
  bool transpose = false, fMatrixCtrl = false;
  T padValue = 0;
};

enum class RoundMode : uint8_t { DEFAULT = 0, HYBRID };
enum DualDstMode : uint8_t { DUAL_DST_DISABLE = 0, DUAL_DST_SPLIT_M, DUAL_DST_SPLIT_N };
// CopyL0C2UB's trait: a struct whose `value` is one of these.
struct CopyL0C2UBTrait {
  constexpr CopyL0C2UBTrait() {}
  constexpr CopyL0C2UBTrait(RoundMode roundModeIn, bool enableReluIn, bool enableChannelSplitIn,
                            DualDstMode dualDstCtlIn)
      : roundMode(roundModeIn),
        enableRelu(enableReluIn),
        enableChannelSplit(enableChannelSplitIn),
        dualDstCtl(dualDstCtlIn) {}
  RoundMode roundMode = RoundMode::DEFAULT;
  bool enableRelu = false;
  bool enableChannelSplit = false;
  DualDstMode dualDstCtl = DUAL_DST_DISABLE;
};

// The operations and their default traits (the traits carry nothing lngrad uses, but
// CopyL0C2UB's).
// MakeCopy(Op{}) takes the operation's default trait (TraitDefaultOf).
template <typename Op>
struct TraitDefaultOf;
#define LNGRAD_TE_OPS(X) \
  X(CopyGM2L1)           \
  X(CopyL12L0A)          \
  X(CopyL12L0B)          \
  X(CopyL12L0ScaleA)     \
  X(CopyL12L0ScaleB)     \
  X(CopyL12BT)           \
  X(CopyL0C2GM)          \
  X(CopyUB2GM)
#define LNGRAD_TE_DECLARE_OP(name)   \
  struct name {};                    \
  struct name##TraitDefault {};      \
  template <>                        \
  struct TraitDefaultOf<name> {      \
    using type = name##TraitDefault; \
  };
LNGRAD_TE_OPS(LNGRAD_TE_DECLARE_OP)
#undef LNGRAD_TE_DECLARE_OP
struct CopyL0C2UB {};
struct CopyL0C2UBTraitDefault {
  using TraitType = CopyL0C2UBTrait;
  static constexpr TraitType value{};
};
template <>
struct TraitDefaultOf<CopyL0C2UB> {
  using type = CopyL0C2UBTraitDefault;
};
struct MmadOperation {};
enum class MmadType : uint8_t { NORMAL = 0, MX = 1 };
// Mmad's trait: a struct whose `value` is one of these (MmadTraitDefault: GEMV off).
// (an aggregate: MmadTrait{fmOffset, kDirectionAlign, cmatrixSource, disableGemv, mmadType}).
struct MmadTrait {
  int32_t fmOffset = 0;
  bool kDirectionAlign = false, cmatrixSource = false, disableGemv = true;
  MmadType mmadType = MmadType::NORMAL;
};
struct MmadTraitDefault {
  using TraitType = MmadTrait;
  static constexpr TraitType value{};
};

// An atom: the operation, its trait and (after with) its parameters.
template <typename Op, typename Trait, typename Params = void>
struct Atom {
  Params params{};
  template <typename P>
  constexpr Atom<Op, Trait, P> with(const P& p) const {
    return {p};
  }
};
template <typename Op, typename Trait>
struct Atom<Op, Trait, void> {
  int params = 0;  // none given
  template <typename P>
  constexpr Atom<Op, Trait, P> with(const P& p) const {
    return {p};
  }
};
template <typename Op, typename Trait>
constexpr Atom<Op, Trait> MakeCopy(const Op&, const Trait&) {
  return {};
}
template <typename Op>
constexpr Atom<Op, typename TraitDefaultOf<Op>::type> MakeCopy(const Op&) {
  return {};
}
template <typename Trait>
constexpr Atom<MmadOperation, Trait> MakeMmad(const MmadOperation&, const Trait&) {
  return {};
}

namespace detail {

using View = lngrad::aicore::detail::TensorView;
inline constexpr const char* kPositionCheck = "tensor_api.position";
inline constexpr const char* kLayoutCheck = "tensor_api.layout";
inline constexpr const char* kAlignmentCheck = "tensor_api.alignment";

// Where a tensor's first element lies: a local memory (its position and byte address) or GM.
struct Where {
  bool local = false;
  AscendC::TPosition pos = AscendC::TPosition::GM;
  uint32_t addr = 0;
};
Where WhereOf(const void* p) noexcept;
// Raises tensor_api.position unless w is one of the memories (GM: w not local).
void RequireMemory(const char* api, const char* operand, const Where& w,
                   std::initializer_list<AscendC::TPosition> allowed);
[[noreturn]] void RaiseLayout(const char* api, Pattern dst, Pattern src);
// Raises tensor_api.alignment (checked mode) unless r % rows == 0 and c % cols == 0.
void RequireGrid(const char* api, const char* operand, uint32_t r, uint32_t c, uint32_t rows,
                 uint32_t cols);

// The bytes of n elements of T (the 4-bit types: two a byte).
template <typename T>
constexpr uint64_t BytesOf(uint64_t n) {
  return n * lngrad::aicore::kElemBits<T> / 8;
}

// The LocalTensor of t's memory from the slice's element (b, 0, 0) to the layout's end; in L1
// at position C1 with as_c1 (the bias's and the quantisation values' position), else A1.
template <typename T>
AscendC::LocalTensor<T> LocalOf(const Tensor<T>& t, uint32_t b, bool as_c1 = false) {
  const Where w = WhereOf(t.Data());
  const uint64_t index = t.IndexOf(b, 0, 0);
  const TPosition pos = as_c1 && w.pos == TPosition::A1 ? TPosition::C1 : w.pos;
  return AscendC::LocalTensor<T>(pos, w.addr + static_cast<uint32_t>(BytesOf<T>(index)),
                                 static_cast<uint32_t>(t.Remaining(b)));
}
template <typename T>
AscendC::GlobalTensor<T> GlobalOf(const Tensor<T>& t, uint32_t b) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(t.Data(), t.Layout().batch * t.Layout().Capacity());
  return g[t.IndexOf(b, 0, 0)];
}
// The same memory as U (the MX copies move fp4 as bytes and e8m0 scales as b16).
template <typename U, typename T>
AscendC::GlobalTensor<U> GlobalAs(const AscendC::GlobalTensor<T>& g) {
  AscendC::GlobalTensor<U> r;
  r.SetGlobalBuffer(reinterpret_cast<U*>(g.GetPhyAddr()),
                    BytesOf<T>(g.GetSize()) * 8 / lngrad::aicore::kElemBits<U>);
  return r;
}

// One matrix move on the NZ grid (16-row blocks of c0 columns): the source's R x C block in the
// grid's orientation (transposed: the destination holds the transpose of the tensors' matrix).
struct GridMove {
  bool transposed;
  bool src_row_major;  // ND-like source in the grid's orientation (else DN-like)
  uint32_t n, d;       // the grid's rows and columns moved
  uint64_t src_ld;     // elements between source rows (row-major) or columns
  uint32_t dst_rows;   // the destination grid's rows (its C0 blocks' stride in 32-byte rows)
};
GridMove GmToL1Move(const FrameLayout& dst, const FrameLayout& src, const Triple& extent,
                    const char* api);

template <typename T>
void CopyGmToL1Grid(const Tensor<T>& dst, const Tensor<T>& src, lngrad::aicore::SrcLoc loc);
// GM -> L1 of MX scales into ZZ or NN (tensor_api/atom/mx_atom.h).
template <typename T>
void CopyGmToL1Scale(const Tensor<T>& dst, const Tensor<T>& src, lngrad::aicore::SrcLoc loc);

template <typename T>
void CopyGmToL1(const Tensor<T>& dst, const Tensor<T>& src, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyGM2L1)";
  RequireMemory(kApi, "dst", WhereOf(dst.Data()), {TPosition::A1});
  RequireMemory(kApi, "src", WhereOf(src.Data()), {TPosition::GM});
  const FrameLayout& dl = dst.Layout();
  const Triple e = src.Extent();
  if (dl.pattern == Pattern::kND ||
      (dl.pattern == src.Layout().pattern && dl.pattern == Pattern::kNC1HWC0)) {
    // Rows (or whole NC1HWC0 maps) as they are.
    if (src.Layout().pattern != dl.pattern) RaiseLayout(kApi, dl.pattern, src.Layout().pattern);
    const bool whole = dl.pattern == Pattern::kNC1HWC0;
    for (uint32_t b = 0; b < e.b; ++b) {
      for (uint32_t r = 0; r < (whole ? 1u : e.r); ++r) {
        const uint64_t s = src.IndexOf(b, r, 0) - src.IndexOf(b, 0, 0);
        const uint64_t count = whole ? src.Layout().Capacity() : e.c;
        if (count * sizeof(T) % 32 == 0) {
          const auto d = static_cast<uint32_t>(dst.IndexOf(b, r, 0) - dst.IndexOf(b, 0, 0));
          AscendC::DataCopy(LocalOf(dst, b)[d], GlobalOf(src, b)[s], static_cast<uint32_t>(count),
                            loc);
        } else {  // a row of bytes that are no whole 32-byte blocks: the padded copy
          // The device writes whole 32-byte blocks: the L1 tensor covers them.
          const Where w = WhereOf(dst.Data());
          const auto bytes = static_cast<uint32_t>(count * sizeof(T));
          const AscendC::LocalTensor<T> l(
              w.pos, w.addr + static_cast<uint32_t>(dst.IndexOf(b, r, 0) * sizeof(T)),
              (bytes + 31) / 32 * 32 / sizeof(T));
          const AscendC::DataCopyExtParams p(1, bytes, 0, 0, 0);
          AscendC::DataCopyPad(l, GlobalOf(src, b)[s], p,
                               AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}), loc);
        }
      }
    }
    return;
  }
  if (dl.pattern == Pattern::kZZ || dl.pattern == Pattern::kNN) {
    CopyGmToL1Scale(dst, src, loc);
    return;
  }
  if constexpr (sizeof(T) != 1 && sizeof(T) != 2 && sizeof(T) != 4) {
    RaiseLayout(kApi, dl.pattern, src.Layout().pattern);  // fractals hold 1, 2 or 4-byte values
  } else {
    CopyGmToL1Grid(dst, src, loc);
  }
}

// One grid move's DataCopy (Nd2Nz or Dn2Nz) of one matrix.
template <typename U>
void GridCopy(const AscendC::LocalTensor<U>& dst, const AscendC::GlobalTensor<U>& src,
              const GridMove& m, lngrad::aicore::SrcLoc loc) {
  if (m.src_row_major) {
    AscendC::Nd2NzParams p(1, static_cast<uint16_t>(m.n), m.d, 0, m.src_ld,
                           static_cast<uint16_t>(m.dst_rows), 1, 0);
    AscendC::DataCopy(dst, src, p, loc);
  } else {
    AscendC::Dn2NzParams p(1, static_cast<uint16_t>(m.n), m.d, 0, m.src_ld,
                           static_cast<uint16_t>(m.dst_rows), 1, 0);
    AscendC::DataCopy(dst, src, p, loc);
  }
}

// GM -> L1 into a fractal layout (NZ, ZN, NC1HWC0): DataCopy with Nd2Nz or Dn2Nz; 4-bit values
// move as bytes (the vendor's: dValue and the source stride halved, both even).
template <typename T>
void CopyGmToL1Grid(const Tensor<T>& dst, const Tensor<T>& src, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyGM2L1)";
  const FrameLayout& dl = dst.Layout();
  const Triple e = src.Extent();
  const GridMove m = GmToL1Move(dl, src.Layout(), e, kApi);
  const Triple o = dst.Origin();
  if (m.transposed) {
    RequireGrid(kApi, "dst", o.r, o.c, dl.c0, 16);
  } else {
    RequireGrid(kApi, "dst", o.r, o.c, 16, dl.c0);
  }
  for (uint32_t b = 0; b < e.b; ++b) {
    if constexpr (lngrad::aicore::kElemBits<T> == 4) {
      RequireGrid(kApi, "src (4-bit: its row length and stride)", m.d,
                  static_cast<uint32_t>(m.src_ld), 2, 2);
      GridMove bytes = m;
      bytes.d /= 2;
      bytes.src_ld /= 2;
      GridCopy(LocalOf(dst, b).template ReinterpretCast<uint8_t>(),
               GlobalAs<uint8_t>(GlobalOf(src, b)), bytes, loc);
    } else {
      GridCopy(LocalOf(dst, b), GlobalOf(src, b), m, loc);
    }
  }
}

// LoadData 2D V2's parameters for moving src's slice (L1) into dst (L0A: NZ, L0B: ZN).
AscendC::LoadData2DParamsV2 L1ToL0Params(const FrameLayout& dst, const FrameLayout& src,
                                         const Triple& origin, const Triple& extent, bool to_b,
                                         const char* api);

template <typename T>
void CopyL1ToL0(const Tensor<T>& dst, const Tensor<T>& src, bool to_b, lngrad::aicore::SrcLoc loc) {
  const char* api = to_b ? "Copy(CopyL12L0B)" : "Copy(CopyL12L0A)";
  RequireMemory(api, "dst", WhereOf(dst.Data()), {to_b ? TPosition::B2 : TPosition::A2});
  RequireMemory(api, "src", WhereOf(src.Data()), {TPosition::A1});
  const AscendC::LoadData2DParamsV2 p =
      L1ToL0Params(dst.Layout(), src.Layout(), src.Origin(), src.Extent(), to_b, api);
  const Where w = WhereOf(src.Data());
  // The source's whole matrix (the slice's origin is in p), or the fractals p reads when they go
  // further: a transposed float read takes the destination's 16-aligned columns.
  const uint64_t fractals =
      uint64_t{p.kStartPosition + p.kStep - 1u} * static_cast<uint64_t>(p.srcStride) +
      p.mStartPosition + p.mStep;
  const uint64_t elems = std::max<uint64_t>(src.Layout().Capacity(),
                                            fractals * 512 * 8 / lngrad::aicore::kElemBits<T>);
  for (uint32_t b = 0; b < src.Extent().b; ++b) {
    const uint64_t start = src.Layout().Index(src.Origin().b + b, 0, 0);
    AscendC::LocalTensor<T> s(w.pos, w.addr + static_cast<uint32_t>(BytesOf<T>(start)),
                              static_cast<uint32_t>(elems));
    AscendC::LoadData(LocalOf(dst, b), s, p, loc);
  }
}

// L1 -> BiasTable of count half values as float (the move's conversion of a half bias), on MTE1.
void CopyL1ToBtHalf(const View& dst, const View& src, uint32_t count, lngrad::aicore::SrcLoc loc);

template <typename T, typename S>
void CopyL1ToBt(const Tensor<T>& dst, const Tensor<S>& src, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyL12BT)";
  static_assert(std::is_same_v<T, S> || (std::is_same_v<T, float> && std::is_same_v<S, half>),
                "Copy(CopyL12BT): the same type, or half into float");
  RequireMemory(kApi, "dst", WhereOf(dst.Data()), {TPosition::C2});
  RequireMemory(kApi, "src", WhereOf(src.Data()), {TPosition::A1});
  const Triple e = src.Extent();
  for (uint32_t b = 0; b < e.b; ++b) {
    for (uint32_t r = 0; r < e.r; ++r) {
      const auto d = static_cast<uint32_t>(dst.IndexOf(b, r, 0) - dst.IndexOf(b, 0, 0));
      const auto s = static_cast<uint32_t>(src.IndexOf(b, r, 0) - src.IndexOf(b, 0, 0));
      if constexpr (std::is_same_v<T, S>) {
        const auto blocks = static_cast<uint16_t>((e.c * sizeof(T) + 31) / 32);
        AscendC::DataCopy(LocalOf(dst, b)[d], LocalOf(src, b, true)[s],
                          AscendC::DataCopyParams(1, blocks, 0, 0), loc);
      } else {
        CopyL1ToBtHalf(LocalOf(dst, b)[d].View(), LocalOf(src, b, true)[s].View(), e.c, loc);
      }
    }
  }
}

// The quantisation mode of an L0C -> out conversion (vector: a per-column quant tensor given).
template <typename D, typename S>
constexpr QuantMode_t QuantOf(bool vector) {
  if constexpr (std::is_same_v<S, float> && std::is_same_v<D, half>) return F322F16;
  if constexpr (std::is_same_v<S, float> && std::is_same_v<D, bfloat16_t>) return F322BF16;
  if constexpr (std::is_same_v<S, int32_t> && std::is_same_v<D, half>) {
    return vector ? VDEQF16 : DEQF16;
  }
  if constexpr (std::is_same_v<S, float> && sizeof(D) == 1) {
    return vector ? VQF322B8_PRE : QF322B8_PRE;
  }
  return NoQuant;
}

// One Fixpipe of matrix b of src into dst in the output format F (dst_stride in elements).
template <AscendC::CO2Layout F, typename D, typename S, typename Q>
void FixpipeOut(const Tensor<D>& dst, const Tensor<S>& src, const Tensor<Q>* quant, uint32_t b,
                uint32_t dst_stride, lngrad::aicore::SrcLoc loc) {
  static constexpr AscendC::FixpipeConfig kConfig = {F};
  const Triple e = dst.Extent();
  AscendC::FixpipeParamsArch3510<F> p(
      static_cast<uint16_t>(e.c), static_cast<uint16_t>(e.r),
      static_cast<uint16_t>(FrameLayout::Align(src.Layout().rows, 16)), dst_stride);
  p.quantPre = QuantOf<D, S>(quant != nullptr);
  if (quant != nullptr) {
    AscendC::Fixpipe<D, S, kConfig>(GlobalOf(dst, b), LocalOf(src, b), LocalOf(*quant, 0, true), p,
                                    loc);
  } else {
    AscendC::Fixpipe<D, S, kConfig>(GlobalOf(dst, b), LocalOf(src, b), p, loc);
  }
}

// L0C (NZ) -> GM: ND and NHWC by rows (CFG_ROW_MAJOR), DN and NCHW by columns
// (CFG_COLUMN_MAJOR), NC1HWC0 in C0 blocks (CFG_NZ).
template <typename D, typename S, typename Q>
void CopyL0cToGm(const Tensor<D>& dst, const Tensor<S>& src, const Tensor<Q>* quant,
                 lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyL0C2GM)";
  using AscendC::CO2Layout;
  RequireMemory(kApi, "dst", WhereOf(dst.Data()), {TPosition::GM});
  RequireMemory(kApi, "src", WhereOf(src.Data()), {TPosition::CO1});
  if (quant != nullptr) RequireMemory(kApi, "quant", WhereOf(quant->Data()), {TPosition::A1});
  const FrameLayout& dl = dst.Layout();
  if (src.Layout().pattern != Pattern::kNZ) RaiseLayout(kApi, dl.pattern, src.Layout().pattern);
  RequireGrid(kApi, "src", src.Origin().r, src.Origin().c, 16, 16);
  for (uint32_t b = 0; b < dst.Extent().b; ++b) {
    switch (dl.pattern) {
      case Pattern::kND:
      case Pattern::kNHWC:
        FixpipeOut<CO2Layout::ROW_MAJOR>(dst, src, quant, b, dl.cols, loc);
        break;
      case Pattern::kDN:
      case Pattern::kNCHW:
        FixpipeOut<CO2Layout::COLUMN_MAJOR>(dst, src, quant, b, dl.rows, loc);
        break;
      case Pattern::kNC1HWC0:
        FixpipeOut<CO2Layout::NZ>(dst, src, quant, b, dl.rows * dl.c0, loc);
        break;
      default:
        RaiseLayout(kApi, dl.pattern, src.Layout().pattern);
    }
  }
}

// L0C (NZ) -> UB (ND) of this AI core's AIVs (the AIC of a __mix__ kernel): the dual
// destination modes of trait split the rows (or columns) in halves between AIV 0 and AIV 1, each
// at dst's address in its own UB.
template <const CopyL0C2UBTrait& trait, typename D, typename S>
void CopyL0cToUb(const Tensor<D>& dst, const Tensor<S>& src, const FixpipeParams& fp,
                 lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyL0C2UB)";
  using AscendC::CO2Layout;
  RequireMemory(kApi, "dst", WhereOf(dst.Data()), {TPosition::VECCALC});
  RequireMemory(kApi, "src", WhereOf(src.Data()), {TPosition::CO1});
  if (src.Layout().pattern != Pattern::kNZ || dst.Layout().pattern != Pattern::kND) {
    RaiseLayout(kApi, dst.Layout().pattern, src.Layout().pattern);
  }
  RequireGrid(kApi, "src", src.Origin().r, src.Origin().c, 16, 16);
#if __NPU_ARCH__ == 3510
  static constexpr AscendC::FixpipeConfig kConfig = {CO2Layout::ROW_MAJOR, true};
  const Triple e = dst.Extent();
  AscendC::FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p(
      static_cast<uint16_t>(e.c), static_cast<uint16_t>(e.r),
      static_cast<uint16_t>(FrameLayout::Align(src.Layout().rows, 16)), dst.Layout().cols);
  p.quantPre = QuantOf<D, S>(false);
  p.reluEn = trait.enableRelu;
  p.isChannelSplit = trait.enableChannelSplit;
  p.dualDstCtl = static_cast<uint8_t>(trait.dualDstCtl);
  p.subBlockId = fp.subBlockId;
  for (uint32_t b = 0; b < e.b; ++b) {
    AscendC::Fixpipe<D, S, kConfig>(LocalOf(dst, b), LocalOf(src, b), p, loc);
  }
#else
  (void)fp;
  (void)loc;
  lngrad::aicore::RaiseKernelCheck(kPositionCheck, std::string(kApi) + ": the Ascend 950's");
#endif
}

// UB (ND) -> GM (ND), row by row (DataCopy UB -> GM).
template <typename T>
void CopyUbToGm(const Tensor<T>& dst, const Tensor<T>& src, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyUB2GM)";
  RequireMemory(kApi, "dst", WhereOf(dst.Data()), {TPosition::GM});
  RequireMemory(kApi, "src", WhereOf(src.Data()), {TPosition::VECCALC});
  if (src.Layout().pattern != Pattern::kND || dst.Layout().pattern != Pattern::kND) {
    RaiseLayout(kApi, dst.Layout().pattern, src.Layout().pattern);
  }
  const Triple e = src.Extent();
  for (uint32_t b = 0; b < e.b; ++b) {
    AscendC::GlobalTensor<T> g = GlobalOf(dst, b);
    AscendC::LocalTensor<T> l = LocalOf(src, b);
    for (uint32_t r = 0; r < e.r; ++r) {
      AscendC::DataCopy(g[dst.IndexOf(b, r, 0) - dst.IndexOf(b, 0, 0)],
                        l[static_cast<uint32_t>(src.IndexOf(b, r, 0) - src.IndexOf(b, 0, 0))], e.c,
                        loc);
    }
  }
}

// The cube's MmadParams of an Mmad atom: m, n, k, unitFlag, cmatrixInitVal from its parameters
// (without them m and k from A's extent, n from B's, cmatrixInitVal), the rest from its trait.
template <typename Trait, typename P, typename A, typename B>
AscendC::MmadParams CubeMmadParams(const P& params, const Tensor<A>& a, const Tensor<B>& b) {
  constexpr MmadTrait kTrait = Trait::value;
  AscendC::MmadParams mp;
  if constexpr (std::is_same_v<P, MmadParams>) {
    mp.m = params.m;
    mp.n = params.n;
    mp.k = params.k;
    mp.unitFlag = params.unitFlag;
    mp.cmatrixInitVal = params.cmatrixInitVal;
  } else {
    mp.m = static_cast<uint16_t>(a.Extent().r);
    mp.n = static_cast<uint16_t>(b.Extent().c);
    mp.k = static_cast<uint16_t>(a.Extent().c);
    mp.cmatrixInitVal = true;
  }
  mp.fmOffset = kTrait.fmOffset;
  mp.kDirectionAlign = kTrait.kDirectionAlign;
  mp.cmatrixSource = kTrait.cmatrixSource;
#if __NPU_ARCH__ == 3510
  mp.disableGemv = kTrait.disableGemv;
#endif
  return mp;
}

// The MX forms' value types.
template <typename T>
constexpr bool IsMxData() {
  return std::is_same_v<T, fp4x2_e2m1_t> || std::is_same_v<T, fp4x2_e1m2_t> ||
         std::is_same_v<T, fp8_e4m3fn_t> || std::is_same_v<T, fp8_e5m2_t>;
}

template <typename Trait, typename P, typename C, typename A, typename B, typename Bias>
void RunMmad(const P& params, const Tensor<C>& c, const Tensor<A>& a, const Tensor<B>& b,
             const Tensor<Bias>* bias, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Mmad(MmadOperation)";
  RequireMemory(kApi, "c", WhereOf(c.Data()), {TPosition::CO1});
  RequireMemory(kApi, "a", WhereOf(a.Data()), {TPosition::A2});
  RequireMemory(kApi, "b", WhereOf(b.Data()), {TPosition::B2});
  const AscendC::MmadParams mp = CubeMmadParams<Trait>(params, a, b);
  // MX: the cube's MmadMx, the scales from the MX buffers at a's and b's L0 addresses / 16.
  constexpr bool kMx = Trait::value.mmadType == MmadType::MX;
  static_assert(!kMx || (IsMxData<A>() && IsMxData<B>()),
                "Mmad (MmadType::MX): a and b hold fp4 (fp4x2_e2m1_t, fp4x2_e1m2_t) or fp8 "
                "(fp8_e4m3fn_t, fp8_e5m2_t) values");
  for (uint32_t i = 0; i < c.Extent().b; ++i) {
    if (bias != nullptr) {
      RequireMemory(kApi, "bias", WhereOf(bias->Data()), {TPosition::C2});
      if constexpr (kMx) {
        AscendC::MmadMx(LocalOf(c, i), LocalOf(a, i), LocalOf(b, i), LocalOf(*bias, i), mp, loc);
      } else {
        AscendC::Mmad(LocalOf(c, i), LocalOf(a, i), LocalOf(b, i), LocalOf(*bias, i), mp, loc);
      }
    } else if constexpr (kMx) {
      AscendC::MmadMx(LocalOf(c, i), LocalOf(a, i), LocalOf(b, i), mp, loc);
    } else {
      AscendC::Mmad(LocalOf(c, i), LocalOf(a, i), LocalOf(b, i), mp, loc);
    }
  }
}

// The img2col of src (an NC1HWC0 map in L1) into dst (L0A, NZ) by LoadData 3Dv2.
template <typename T, typename U>
void CopyImg2Col(const Tensor<T>& dst, const Tensor<T>& src, const Img2ColParams<U>& params,
                 lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyL12L0A, Img2ColParams)";
  RequireMemory(kApi, "dst", WhereOf(dst.Data()), {TPosition::A2});
  RequireMemory(kApi, "src", WhereOf(src.Data()), {TPosition::A1});
  const FrameLayout& sl = src.Layout();
  if (sl.pattern != Pattern::kNC1HWC0 || dst.Layout().pattern != Pattern::kNZ) {
    RaiseLayout(kApi, dst.Layout().pattern, sl.pattern);
  }
  AscendC::LoadData3DParamsV2<T> p;
  for (int i = 0; i < 4; ++i) p.padList[i] = params.padList[i];
  p.l1H = static_cast<uint16_t>(sl.h);
  p.l1W = static_cast<uint16_t>(sl.w);
  p.channelSize = static_cast<uint16_t>(sl.cols);
  p.kExtension = params.kExtension;
  p.mExtension = params.mExtension;
  p.strideW = params.strideW;
  p.strideH = params.strideH;
  p.filterW = params.filterW;
  p.filterH = params.filterH;
  p.dilationFilterW = params.dilationFilterW;
  p.dilationFilterH = params.dilationFilterH;
  p.filterSizeW = params.filterSizeW;
  p.filterSizeH = params.filterSizeH;
  p.enTranspose = params.transpose;
  p.fMatrixCtrl = params.fMatrixCtrl;
  p.padValue = static_cast<T>(params.padValue);
  AscendC::LoadData(LocalOf(dst, 0), LocalOf(src, 0), p, loc);
}

}  // namespace detail

template <typename Trait, typename T, typename U>
void Copy(const Atom<CopyL12L0A, Trait, Img2ColParams<U>>& atom, const Tensor<T>& dst,
          const Tensor<T>& src, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyImg2Col(dst, src, atom.params, loc);
}
template <typename Trait, typename P, typename D, typename S>
void Copy(const Atom<CopyL0C2UB, Trait, P>& atom, const Tensor<D>& dst, const Tensor<S>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  FixpipeParams fp;
  if constexpr (std::is_same_v<P, FixpipeParams>) fp = atom.params;
  detail::CopyL0cToUb<Trait::value>(dst, src, fp, loc);
}
template <typename Trait, typename P, typename T>
void Copy(const Atom<CopyUB2GM, Trait, P>&, const Tensor<T>& dst, const Tensor<T>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyUbToGm(dst, src, loc);
}
template <typename Trait, typename P, typename T, typename S>
void Copy(const Atom<CopyL12BT, Trait, P>&, const Tensor<T>& dst, const Tensor<S>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyL1ToBt(dst, src, loc);
}
template <typename Trait, typename P, typename D, typename S>
void Copy(const Atom<CopyL0C2GM, Trait, P>&, const Tensor<D>& dst, const Tensor<S>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(
      detail::QuantOf<D, S>(false) != DEQF16 && detail::QuantOf<D, S>(false) != QF322B8_PRE,
      "Copy(CopyL0C2GM): this conversion takes its scales from a quant tensor (the "
      "fourth argument, uint64_t in L1)");
  detail::CopyL0cToGm<D, S, uint64_t>(dst, src, nullptr, loc);
}
template <typename Trait, typename P, typename D, typename S, typename Q>
void Copy(const Atom<CopyL0C2GM, Trait, P>&, const Tensor<D>& dst, const Tensor<S>& src,
          const Tensor<Q>& quant, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<Q, uint64_t>, "Copy(CopyL0C2GM): the quant tensor holds uint64_t");
  detail::CopyL0cToGm(dst, src, &quant, loc);
}
template <typename Trait, typename P, typename C, typename A, typename B>
void Mmad(const Atom<MmadOperation, Trait, P>& atom, const Tensor<C>& c, const Tensor<A>& a,
          const Tensor<B>& b, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::RunMmad<Trait, decltype(atom.params), C, A, B, C>(atom.params, c, a, b, nullptr, loc);
}
template <typename Trait, typename P, typename C, typename A, typename B, typename Bias>
void Mmad(const Atom<MmadOperation, Trait, P>& atom, const Tensor<C>& c, const Tensor<A>& a,
          const Tensor<B>& b, const Tensor<Bias>& bias,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::RunMmad<Trait>(atom.params, c, a, b, &bias, loc);
}

template <typename Trait, typename P, typename T>
void Copy(const Atom<CopyGM2L1, Trait, P>&, const Tensor<T>& dst, const Tensor<T>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyGmToL1(dst, src, loc);
}
template <typename Trait, typename P, typename T>
void Copy(const Atom<CopyL12L0A, Trait, P>&, const Tensor<T>& dst, const Tensor<T>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyL1ToL0(dst, src, false, loc);
}
template <typename Trait, typename P, typename T>
void Copy(const Atom<CopyL12L0B, Trait, P>&, const Tensor<T>& dst, const Tensor<T>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyL1ToL0(dst, src, true, loc);
}

}  // namespace AscendC::Te
