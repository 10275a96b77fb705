// Programming styles (docs/ascendc_compat.md, "Programming styles"): static tensors
// (LocalMemAllocator), TBuf::AllocTensor/FreeTensor, TBufPool, the block_idx/block_num
// built-ins, the overflow mode and the system APIs, against the vendor's documented behaviour.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "checked_mode_scope.h"
#include "gm_buffer.h"
#include "run_kernel.h"
#include "kernel_operator.h"

namespace {

using lngrad::aicore::BlockFailure;
using lngrad::aicore::KernelCheckError;
using lngrad::aicore::LaunchOptions;
using namespace lngrad::aicore::test;

constexpr uint32_t kUb910B = 192 * 1024;  // spec §6.6, independent of the product table
constexpr uint32_t kUb950 = 248 * 1024;

// The single failure of a one-block launch: its check and message.
BlockFailure RunFailing(const std::function<void()>& kernel,
                        const LaunchOptions& options = On("Ascend910B1")) {
  std::vector<BlockFailure> f = RunKernel(1, kernel, options);
  EXPECT_EQ(f.size(), 1u);
  return f.empty() ? BlockFailure{} : f.front();
}

// ---------------------------------------------------------------------------------------------
// LocalMemAllocator

TEST(StaticTensor, AllocHandsOutConsecutiveUbAddressesWithoutRounding) {
  EXPECT_TRUE(RunKernel(1, [] {
                AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
                EXPECT_EQ(a.GetCurAddr(), 0u);
                AscendC::LocalTensor<float> x = a.Alloc<float, 100>();
                EXPECT_EQ(x.GetPhyAddr(), 0u);
                EXPECT_EQ(x.GetSize(), 100u);
                EXPECT_EQ(x.GetPosition(), static_cast<int32_t>(AscendC::TPosition::VECCALC));
                EXPECT_EQ(a.GetCurAddr(), 400u);
                // 400 is not a multiple of 32: the vendor does not round, neither does lngrad.
                AscendC::LocalTensor<half> h = a.Alloc<AscendC::TPosition::VECIN, half, 8>();
                EXPECT_EQ(h.GetPhyAddr(), 400u);
                EXPECT_EQ(h.GetPosition(), static_cast<int32_t>(AscendC::TPosition::VECIN));
                EXPECT_EQ(a.GetCurAddr(), 416u);
                const uint32_t n = 24;
                AscendC::LocalTensor<int32_t> d = a.Alloc<int32_t>(n);
                EXPECT_EQ(d.GetPhyAddr(), 416u);
                EXPECT_EQ(d.GetSize(), 24u);
                AscendC::LocalTensor<uint8_t> o = a.Alloc<AscendC::TPosition::VECOUT, uint8_t>(3);
                EXPECT_EQ(o.GetPhyAddr(), 512u);
                EXPECT_EQ(o.GetPosition(), static_cast<int32_t>(AscendC::TPosition::VECOUT));
                EXPECT_EQ(a.GetCurAddr(), 515u);
              }).empty());
}

TEST(StaticTensor, AllocUpToTheUbSizeWorksAndOneBytePastIsUbOverflowInBothModes) {
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    EXPECT_TRUE(RunKernel(1, [] {
                  AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
                  a.Alloc<float, kUb910B / 4 - 8>();
                  AscendC::LocalTensor<uint8_t> last = a.Alloc<uint8_t, 32>();
                  EXPECT_EQ(last.GetPhyAddr(), kUb910B - 32);
                  EXPECT_EQ(a.GetCurAddr(), kUb910B);
                }).empty());
    const BlockFailure f = RunFailing([] {
      AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
      a.Alloc<float, kUb910B / 4 - 8>();
      a.Alloc<uint8_t>(33);
    });
    EXPECT_EQ(f.check, "ub_overflow");
    EXPECT_NE(f.message.find("LocalMemAllocator::Alloc at "), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("33 elements of 1 B (33 B) at UB address 196576"), std::string::npos)
        << f.message;
    EXPECT_NE(f.message.find("196608 B UB of Ascend910B1"), std::string::npos) << f.message;
  }
}

TEST(StaticTensor, TheLimitIsTheProductsUb) {
  EXPECT_TRUE(RunKernel(
                  1,
                  [] {
                    AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
                    a.Alloc<uint8_t>(kUb950);
                  },
                  On("Ascend950PR_9599"))
                  .empty());
  EXPECT_EQ(RunFailing([] {
              AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
              a.Alloc<uint8_t>(kUb910B + 1);
            }).check,
            "ub_overflow");
}

TEST(StaticTensor, CheckedModeAllowsOneLiveAllocatorPerBlock) {
  {
    CheckedModeScope mode(true);
    const BlockFailure f = RunFailing([] {
      AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
      AscendC::LocalMemAllocator<AscendC::Hardware::UB> b;
    });
    EXPECT_EQ(f.check, "local_mem_allocator");
    EXPECT_NE(f.message.find("only one LocalMemAllocator can exist"), std::string::npos)
        << f.message;
    // After the first one is gone, a new one starts again at address 0.
    EXPECT_TRUE(RunKernel(1, [] {
                  { AscendC::LocalMemAllocator<AscendC::Hardware::UB> a; }
                  AscendC::LocalMemAllocator<AscendC::Hardware::UB> b;
                  EXPECT_EQ(b.Alloc<float>(8).GetPhyAddr(), 0u);
                }).empty());
    // Every block has its own.
    EXPECT_TRUE(RunKernel(4, [] { AscendC::LocalMemAllocator<AscendC::Hardware::UB> a; }).empty());
  }
  CheckedModeScope mode(false);
  EXPECT_TRUE(RunKernel(1, [] {
                AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
                AscendC::LocalMemAllocator<AscendC::Hardware::UB> b;
                // Two allocators hand out the same addresses, as on the device.
                EXPECT_EQ(a.Alloc<float>(8).GetPhyAddr(), b.Alloc<float>(8).GetPhyAddr());
              }).empty());
}

TEST(StaticTensor, CheckedModeRefusesMixingWithTPipe) {
  CheckedModeScope mode(true);
  BlockFailure f = RunFailing([] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
  });
  EXPECT_EQ(f.check, "local_mem_allocator");
  EXPECT_NE(f.message.find("this block has a TPipe that has allocated UB"), std::string::npos)
      << f.message;
  // A TPipe that allocates nothing overlaps nothing (the vendor's softmax sample has one).
  EXPECT_TRUE(RunKernel(1, [] {
                AscendC::TPipe pipe;
                AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
                (void)a.Alloc<float>(8);
              }).empty());
  f = RunFailing([] {
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> a;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
  });
  EXPECT_EQ(f.check, "local_mem_allocator");
  EXPECT_NE(f.message.find("this block has a LocalMemAllocator"), std::string::npos) << f.message;
}

TEST(StaticTensor, ProductsWithoutTheApiAreRefusedInCheckedMode) {
  CheckedModeScope mode(true);
  for (const char* soc : {"Ascend310B1", "Ascend910A"}) {
    const BlockFailure f =
        RunFailing([] { AscendC::LocalMemAllocator<AscendC::Hardware::UB> a; }, On(soc));
    EXPECT_EQ(f.check, "unsupported_on_product") << soc;
    EXPECT_NE(f.message.find(std::string("not available on ") + soc), std::string::npos)
        << f.message;
  }
  EXPECT_TRUE(RunKernel(
                  1, [] { AscendC::LocalMemAllocator<AscendC::Hardware::UB> a; }, On("Ascend310P1"))
                  .empty());
}

// The vendor's static-tensor add (InitSocState, block_idx, LocalMemAllocator, DataCopy, Add),
// against a scalar sum.
TEST(StaticTensor, StaticTensorAddKernelComputesEveryBlocksSlice) {
  constexpr uint32_t kBlocks = 4;
  constexpr uint32_t kLen = 256;
  GmBuffer x(kBlocks * kLen * 4), y(kBlocks * kLen * 4), z(kBlocks * kLen * 4);
  for (uint32_t i = 0; i < kBlocks * kLen; ++i) {
    x.as<float>()[i] = 0.5f * static_cast<float>(i);
    y.as<float>()[i] = 3.0f - static_cast<float>(i % 7);
  }
  float* xp = x.as<float>();
  float* yp = y.as<float>();
  float* zp = z.as<float>();
  EXPECT_TRUE(RunKernel(kBlocks, [=] {
                AscendC::InitSocState();
                AscendC::GlobalTensor<float> xGm, yGm, zGm;
                xGm.SetGlobalBuffer(xp + block_idx * kLen, kLen);
                yGm.SetGlobalBuffer(yp + block_idx * kLen, kLen);
                zGm.SetGlobalBuffer(zp + block_idx * kLen, kLen);
                AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
                AscendC::LocalTensor<float> xl = ub.Alloc<float, kLen>();
                AscendC::LocalTensor<float> yl = ub.Alloc<float, kLen>();
                AscendC::LocalTensor<float> zl = ub.Alloc<float, kLen>();
                AscendC::DataCopy(xl, xGm, kLen);
                AscendC::DataCopy(yl, yGm, kLen);
                AscendC::PipeBarrier<PIPE_ALL>();
                AscendC::Add(zl, xl, yl, kLen);
                AscendC::PipeBarrier<PIPE_ALL>();
                AscendC::DataCopy(zGm, zl, kLen);
              }).empty());
  for (uint32_t i = 0; i < kBlocks * kLen; ++i) {
    ASSERT_EQ(z.as<float>()[i], x.as<float>()[i] + y.as<float>()[i]) << i;
  }
}

// ---------------------------------------------------------------------------------------------
// block_idx, block_num

TEST(SystemVariables, BlockIdxAndBlockNumAreTheRunningBlocksInEveryLaunchMode) {
  constexpr uint32_t kBlocks = 7;
  for (bool sequential : {false, true}) {
    GmBuffer out(kBlocks * 4 * sizeof(int64_t));
    int64_t* o = out.as<int64_t>();
    EXPECT_TRUE(RunKernel(
                    kBlocks,
                    [=] {
                      const int64_t me = AscendC::GetBlockIdx();
                      o[me * 4 + 0] = block_idx;
                      o[me * 4 + 1] = block_num;
                      // Arithmetic, comparison and conversion, as kernels use them.
                      o[me * 4 + 2] = block_idx * 10 + (block_idx < block_num - 1 ? 1 : 0);
                      const uint32_t u = static_cast<uint32_t>(block_idx);
                      o[me * 4 + 3] = std::to_string(block_idx) == std::to_string(u) ? 1 : 0;
                    },
                    On("Ascend910B1", sequential))
                    .empty());
    for (int64_t b = 0; b < kBlocks; ++b) {
      EXPECT_EQ(o[b * 4 + 0], b);
      EXPECT_EQ(o[b * 4 + 1], kBlocks);
      EXPECT_EQ(o[b * 4 + 2], b * 10 + (b < kBlocks - 1 ? 1 : 0));
      EXPECT_EQ(o[b * 4 + 3], 1);
    }
  }
}

TEST(SystemVariables, ANestedLaunchRestoresTheOuterBlocksValues) {
  std::vector<BlockFailure> f = RunKernel(3, [] {
    const int64_t outer = block_idx;
    EXPECT_TRUE(lngrad::aicore::Launch(5, [] { EXPECT_EQ(block_num, 5); }).ok());
    EXPECT_EQ(block_idx, outer);
    EXPECT_EQ(block_num, 3);
  });
  EXPECT_TRUE(f.empty());
  // Outside any launch: the standalone block, 0 of 1.
  EXPECT_EQ(block_idx, 0);
  EXPECT_EQ(block_num, 1);
}

// ---------------------------------------------------------------------------------------------
// TBuf::AllocTensor / FreeTensor

TEST(TBufTensor, AllocTensorIsTheWholeBufferAndFreeTensorChecksTheOwner) {
  {
    CheckedModeScope mode(true);
    EXPECT_TRUE(RunKernel(1, [] {
                  AscendC::TPipe pipe;
                  AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
                  pipe.InitBuffer(a, 100);  // rounded up to 128
                  pipe.InitBuffer(b, 64);
                  AscendC::LocalTensor<float> t = b.AllocTensor<float>();
                  EXPECT_EQ(t.GetPhyAddr(), 128u);
                  EXPECT_EQ(t.GetSize(), 16u);
                  EXPECT_EQ(a.AllocTensor<half>().GetSize(), 64u);
                  // AllocTensor again without FreeTensor: a TBuf has no queue state.
                  EXPECT_EQ(b.AllocTensor<int32_t>().GetPhyAddr(), 128u);
                  b.FreeTensor(t);
                  b.FreeTensor(t);
                }).empty());
    const BlockFailure f = RunFailing([] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
      pipe.InitBuffer(a, 64);
      pipe.InitBuffer(b, 64);
      b.FreeTensor(a.AllocTensor<float>());
    });
    EXPECT_EQ(f.check, "queue_foreign_tensor");
    EXPECT_NE(f.message.find("TBuf<VECCALC>::FreeTensor"), std::string::npos) << f.message;
  }
  CheckedModeScope mode(false);
  EXPECT_TRUE(RunKernel(1, [] {
                AscendC::TPipe pipe;
                AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
                pipe.InitBuffer(a, 64);
                pipe.InitBuffer(b, 64);
                b.FreeTensor(a.AllocTensor<float>());
              }).empty());
}

// A 4-bit type counts two elements a byte (the vendor's TBuf::Get and Get(len) for int4b_t): the
// whole buffer, a queue's block and the stack buffer hold twice their bytes in elements, and
// GetWithOffset's bound is in bytes of 4-bit elements.
TEST(TBufTensor, FourBitTypesCountTwoElementsAByte) {
  CheckedModeScope mode(true);
  EXPECT_TRUE(RunKernel(1, [] {
                AscendC::TPipe pipe;
                AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
                AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
                pipe.InitBuffer(buf, 64);
                pipe.InitBuffer(que, 1, 96);
                EXPECT_EQ(buf.Get<AscendC::int4b_t>().GetSize(), 128u);
                EXPECT_EQ(buf.AllocTensor<AscendC::int4b_t>().GetSize(), 128u);
                EXPECT_EQ(buf.Get<AscendC::int4b_t>(128).GetSize(), 128u);
                EXPECT_EQ(buf.Get<uint8_t>().GetSize(), 64u);
                AscendC::LocalTensor<AscendC::int4b_t> q = que.AllocTensor<AscendC::int4b_t>();
                EXPECT_EQ(q.GetSize(), 192u);
                que.FreeTensor(q);
              }).empty());
  const BlockFailure f = RunFailing([] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    (void)buf.Get<AscendC::int4b_t>(130);  // 65 bytes
  });
  EXPECT_EQ(f.check, "tensor_bounds");
  EXPECT_NE(f.message.find("130 elements of 4 bits"), std::string::npos) << f.message;
}

// ---------------------------------------------------------------------------------------------
// TBufPool

TEST(BufPool, PoolsCarveTheirBuffersFromTheirOwnRangeAndSharedPoolsReuseIt) {
  EXPECT_TRUE(RunKernel(1, [] {
                AscendC::TPipe pipe;
                AscendC::TQue<AscendC::TPosition::VECIN, 1> before;
                pipe.InitBuffer(before, 1, 100);  // [0, 128)
                AscendC::TBufPool<AscendC::TPosition::VECCALC> pool1, pool2;
                pipe.InitBufPool(pool1, 1000);  // [128, 1152)
                EXPECT_EQ(pool1.PoolState().start, 128u);
                EXPECT_EQ(pool1.PoolState().len, 1024u);
                EXPECT_EQ(pipe.AllocatedBytes(), 1152u);
                pipe.InitBufPool(pool2, 500, pool1);  // shares [128, 1152)
                EXPECT_EQ(pool2.PoolState().start, 128u);
                EXPECT_EQ(pool2.PoolState().len, 1024u);
                EXPECT_EQ(pipe.AllocatedBytes(), 1152u);

                AscendC::TQue<AscendC::TPosition::VECIN, 2> q1;
                AscendC::TBuf<AscendC::TPosition::VECCALC> t1;
                pool1.InitBuffer(q1, 2, 60);  // 2 x 64 at 128
                pool1.InitBuffer(t1, 33);     // 64 at 256
                AscendC::LocalTensor<float> a = q1.AllocTensor<float>();
                AscendC::LocalTensor<float> b = q1.AllocTensor<float>();
                EXPECT_EQ(a.GetPhyAddr(), 128u);
                EXPECT_EQ(b.GetPhyAddr(), 192u);
                EXPECT_EQ(a.GetSize(), 16u);
                EXPECT_EQ(t1.Get<uint8_t>().GetPhyAddr(), 256u);
                EXPECT_EQ(t1.Get<uint8_t>().GetSize(), 64u);
                q1.FreeTensor(a);
                q1.FreeTensor(b);
                pool1.Reset();
                EXPECT_EQ(pool1.PoolState().cur, 128u);

                AscendC::TQue<AscendC::TPosition::VECOUT, 1> q2;
                pool2.InitBuffer(q2, 1, 256);
                EXPECT_EQ(q2.AllocTensor<float>().GetPhyAddr(), 128u);

                // A sub-pool starts where its parent is, and takes its bufIDSize.
                AscendC::TBufPool<AscendC::TPosition::VECCALC, 2> sub;
                pool2.InitBufPool(sub, 64);
                EXPECT_EQ(sub.PoolState().start, 384u);
                EXPECT_EQ(pool2.PoolState().cur, 448u);
                EXPECT_EQ(pool2.PoolState().ids, 1u);  // arch 2201: sub-pools take no buffers
                AscendC::TBuf<AscendC::TPosition::VECIN> t2;
                sub.InitBuffer(t2, 64);
                EXPECT_EQ(t2.Get<float>().GetPhyAddr(), 384u);
              }).empty());
}

TEST(BufPool, RequestsPastThePoolOrItsBufferIdsAreErrorsInBothModes) {
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    BlockFailure f = RunFailing([] {
      AscendC::TPipe pipe;
      AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
      pipe.InitBufPool(pool, 256);
      AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
      pool.InitBuffer(q, 2, 129);  // 2 x 160 > 256
    });
    EXPECT_EQ(f.check, "ub_overflow");
    EXPECT_NE(f.message.find("needs 320 B at UB address 0, but only 256 B of the pool [0, 256)"),
              std::string::npos)
        << f.message;
    EXPECT_NE(f.message.find("static_tensor_test.cpp:"), std::string::npos) << f.message;

    // Arch 3510 counts buffer IDs against bufIDSize in checked mode (sub-pools take theirs) ...
    const auto ids = [] {
      AscendC::TPipe pipe;
      AscendC::TBufPool<AscendC::TPosition::VECCALC, 4> pool;
      pipe.InitBufPool(pool, 1024);
      AscendC::TBufPool<AscendC::TPosition::VECCALC, 2> sub;
      pool.InitBufPool(sub, 64);
      AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
      AscendC::TBuf<AscendC::TPosition::VECCALC> t;
      pool.InitBuffer(q, 2, 32);
      pool.InitBuffer(t, 32);
    };
    if (checked) {
      f = RunFailing(ids, On("Ascend950PR_9599"));
      EXPECT_EQ(f.check, "init_buffer");
      EXPECT_NE(f.message.find("would number 5, which exceeds the limit 4 (its bufIDSize"),
                std::string::npos)
          << f.message;
    } else {
      EXPECT_TRUE(RunKernel(1, ids, On("Ascend950PR_9599")).empty());
    }
    // ... the others count queue blocks and TBufs, 16 at most, whatever bufIDSize says.
    EXPECT_TRUE(RunKernel(1, ids).empty());
    f = RunFailing([] {
      AscendC::TPipe pipe;
      AscendC::TBufPool<AscendC::TPosition::VECCALC, 1> pool;
      pipe.InitBufPool(pool, 4096);
      AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
      AscendC::TBuf<AscendC::TPosition::VECCALC> t;
      pool.InitBuffer(q, 16, 32);
      pool.InitBuffer(t, 32);
    });
    EXPECT_EQ(f.check, "init_buffer");
    EXPECT_NE(f.message.find("would number 17, which exceeds the limit 16 (QBUFPOOL_MAX_LEN)"),
              std::string::npos)
        << f.message;

    f = RunFailing([] {
      AscendC::TPipe pipe;
      AscendC::TBufPool<AscendC::TPosition::VECCALC> a, b;
      pipe.InitBufPool(a, 256);
      pipe.InitBufPool(b, 288, a);
    });
    EXPECT_EQ(f.check, "init_buffer");
    EXPECT_NE(f.message.find("no longer than the length of shareBuf, which is 256 B"),
              std::string::npos)
        << f.message;

    f = RunFailing([] {
      AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
      AscendC::TBuf<AscendC::TPosition::VECCALC> t;
      pool.InitBuffer(t, 32);
    });
    EXPECT_EQ(f.check, "init_buffer");
    EXPECT_NE(f.message.find("the TBufPool was not initialised"), std::string::npos) << f.message;

    f = RunFailing([] {
      AscendC::TPipe pipe;
      AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
      pipe.InitBufPool(pool, kUb910B + 32);
    });
    EXPECT_EQ(f.check, "ub_overflow");
  }
}

// ---------------------------------------------------------------------------------------------
// Overflow mode

TEST(OverflowMode, SetOverflowSwitchesTheBlocksModeAndEveryBlockStartsSaturated) {
  GmBuffer seen(4 * 3);
  uint8_t* s = seen.p;
  EXPECT_TRUE(RunKernel(
                  4,
                  [=] {
                    const int64_t b = block_idx;
                    s[b * 3 + 0] = lngrad::aicore::FloatSaturation();
                    AscendC::AscendCUtils::SetOverflow(1);
                    s[b * 3 + 1] = lngrad::aicore::FloatSaturation();
                    AscendC::InitSocState();  // keeps the overflow mode (CTRL[48])
                    AscendC::AscendCUtils::SetOverflow(b == 3 ? 1 : 0);
                    s[b * 3 + 2] = lngrad::aicore::FloatSaturation();
                  },
                  On("Ascend910B1", /*sequential=*/true))
                  .empty());
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(s[b * 3 + 0], 1) << b;
    EXPECT_EQ(s[b * 3 + 1], 0) << b;
    EXPECT_EQ(s[b * 3 + 2], b == 3 ? 0 : 1) << b;
  }
  // The launching thread's own (standalone) state is untouched.
  EXPECT_TRUE(lngrad::aicore::FloatSaturation());
}

// ---------------------------------------------------------------------------------------------
// DivCeil, GetSystemCycle, GetRuntimeUBSize, InitSocState, DataSyncBarrier

static_assert(AscendC::DivCeil(10, 3) == 4);
static_assert(AscendC::DivCeil(9, 3) == 3);
static_assert(AscendC::AlignUp(33, 32) == 64);

TEST(SystemApis, DivCeilRoundsUpWrapsLikeTheDeviceAndRefusesZero) {
  uint32_t a = 0;
  uint32_t b = 5;
  EXPECT_EQ(AscendC::DivCeil(a, b), 0u);
  a = 0xFFFFFFFFu;
  b = 2;
  EXPECT_EQ(AscendC::DivCeil(a, b), 0u);  // (a + b - 1) wraps in uint32_t
  b = 0;
  try {
    (void)AscendC::DivCeil(a, b);
    ADD_FAILURE() << "no error";
  } catch (const KernelCheckError& e) {
    EXPECT_EQ(e.check(), "div_by_zero");
    EXPECT_NE(e.message().find("divisor b is 0"), std::string::npos) << e.message();
  }
}

TEST(SystemApis, GetSystemCycleCountsAtTheProductsFrequency) {
  struct Case {
    const char* soc;
    double per_ms;  // cycles per millisecond: 50 MHz, 1 GHz
  };
  for (const Case& c : {Case{"Ascend910B1", 50e3}, Case{"Ascend950PR_9599", 1e6}}) {
    int64_t before = 0;
    int64_t after = 0;
    std::chrono::steady_clock::duration host{};
    EXPECT_TRUE(RunKernel(
                    1,
                    [&] {
                      const auto t0 = std::chrono::steady_clock::now();
                      before = AscendC::GetSystemCycle();
                      std::this_thread::sleep_for(std::chrono::milliseconds(20));
                      after = AscendC::GetSystemCycle();
                      host = std::chrono::steady_clock::now() - t0;
                    },
                    On(c.soc))
                    .empty());
    const double ms = std::chrono::duration<double, std::milli>(host).count();
    EXPECT_GE(static_cast<double>(after - before), 20 * c.per_ms * 0.99) << c.soc;
    EXPECT_LE(static_cast<double>(after - before), ms * c.per_ms * 1.01 + 1) << c.soc;
  }
  CheckedModeScope mode(true);
  const BlockFailure f = RunFailing([] { (void)AscendC::GetSystemCycle(); }, On("Ascend310P1"));
  EXPECT_EQ(f.check, "unsupported_on_product");
  EXPECT_NE(f.message.find("GetSystemCycle at "), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("Atlas A2/A3 and Ascend 950"), std::string::npos) << f.message;
}

TEST(SystemApis, GetRuntimeUBSizeIsTheUbOfAscend950AndMissingElsewhere) {
  uint32_t got = 1;
  EXPECT_TRUE(RunKernel(
                  1, [&] { got = AscendC::GetRuntimeUBSize(); }, On("Ascend950PR_9599"))
                  .empty());
  EXPECT_EQ(got, kUb950);
  {
    CheckedModeScope mode(true);
    EXPECT_EQ(RunFailing([] { (void)AscendC::GetRuntimeUBSize(); }).check,
              "unsupported_on_product");
  }
  CheckedModeScope mode(false);
  EXPECT_TRUE(RunKernel(1, [&] { got = AscendC::GetRuntimeUBSize(); }).empty());
  EXPECT_EQ(got, 0u);  // the vendor's header returns 0 outside Ascend 950
}

TEST(SystemApis, InitSocStateAndDataSyncBarrierExistWhereTheVendorHasThem) {
  CheckedModeScope mode(true);
  const auto both = [] {
    AscendC::InitSocState();
    AscendC::DataSyncBarrier<AscendC::MemDsbT::ALL>();
    AscendC::DataSyncBarrier<AscendC::MemDsbT::UB>();
  };
  EXPECT_TRUE(RunKernel(1, both).empty());
  EXPECT_TRUE(RunKernel(1, both, On("Ascend950PR_9599")).empty());
  // It leaves the mask register as the vendor's implementation does: Normal mode, and every
  // bit set on A2/A3 (950 keeps the mask bits).
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    bool counter = true;
    uint64_t high = 0, low = 0;
    EXPECT_TRUE(RunKernel(
                    1,
                    [&] {
                      AscendC::SetMaskCount();
                      AscendC::SetVectorMask<float>(0, 0x0F);
                      AscendC::InitSocState();
                      auto& ctx = lngrad::aicore::detail::MaskContext("test");
                      counter = ctx.mask_counter;
                      high = ctx.mask_high;
                      low = ctx.mask_low;
                    },
                    On(soc))
                    .empty());
    EXPECT_FALSE(counter) << soc;
    const bool full = std::string(soc) == "Ascend910B1";
    EXPECT_EQ(low, full ? ~uint64_t{0} : uint64_t{0x0F}) << soc;
    EXPECT_EQ(high, full ? ~uint64_t{0} : uint64_t{0}) << soc;
  }
  BlockFailure f = RunFailing([] { AscendC::InitSocState(); }, On("Ascend310B1"));
  EXPECT_EQ(f.check, "unsupported_on_product");
  EXPECT_NE(f.message.find("InitSocState at "), std::string::npos) << f.message;
  EXPECT_TRUE(RunKernel(
                  1, [] { AscendC::DataSyncBarrier<AscendC::MemDsbT::DDR>(); }, On("Ascend310B1"))
                  .empty());
  f = RunFailing([] { AscendC::DataSyncBarrier<AscendC::MemDsbT::DDR>(); }, On("Ascend310P1"));
  EXPECT_EQ(f.check, "unsupported_on_product");
  EXPECT_NE(f.message.find("DataSyncBarrier at "), std::string::npos) << f.message;
}

}  // namespace
