// The pipeline sanitizer's model of the TQue framework's hidden synchronisation, as the device
// has it (docs/ascendc_compat.md, "The pipeline sanitizer"):
// - 2201: EnQue and FreeTensor are SetFlags, DeQue and AllocTensor WaitFlags. A SetFlag fires
//   once everything its pipe issued before it is complete, so the wait orders every earlier
//   access of the producer pipe, whatever buffer it touched (the kit's tbufpool_management
//   scenario 3: a TBuf filled beside a queue buffer and ordered by that queue's DeQue).
// - 3510: the queues synchronise through hardware buffer IDs, which a TBufPool sharing another's
//   memory shares too: its AllocTensor waits for the earlier pool's FreeTensor of the same ID
//   (tbufpool_management scenario 1).
// Each kernel that the device orders has a twin that it does not order, which stays reported.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "san_test_util.h"

namespace {

namespace san = lngrad::aicore::san;
using namespace lngrad::aicore::san_test;

constexpr uint32_t kN = 256;  // floats per tile (1 KiB)
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k950 = "Ascend950PR_9599";

Result Launch(const char* soc, const std::function<void()>& kernel) {
  return LaunchSanitized({.soc = soc}, kernel);
}

// --- 2201: a queue's flag orders its whole pipe. ----------------------------------------------
// san_test_util.h's QueueAdd: x and y copied in; only y goes through its queue before the Add.
// With x's copy issued before y's EnQue (the vendor's counter-example 2 as printed), y's
// SetFlag<MTE2_V> fires after it too.

TEST(QueueFlags, CopyBeforeAnotherQueuesEnQueIsOrdered) {
  Gm x(kN), y(kN), z(kN);
  ExpectClean(Launch(k910B, [&] { QueueAdd(x.p, y.p, z.p, kN, {.copy_x_before_y_enque = true}); }));
  EXPECT_EQ(z.p[5], 10.0f);
}

TEST(QueueFlags, CopyAfterTheEnQueIsNotOrdered) {
  Gm x(kN), y(kN), z(kN);
  const Result r = Launch(k910B, [&] { QueueAdd(x.p, y.p, z.p, kN, {}); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("read-after-write hazard on UB bytes [0, 1024)"),
            std::string::npos)
      << r.AllText();
}

// tbufpool_management scenario 3's pattern: a TBuf filled by DataCopy beside a queue buffer,
// read by the Add after the queue's DeQue; then the TBuf refilled after the next AllocTensor of
// that queue, which waits for the FreeTensor that followed the Add (the WAR direction).
void TBufBesideAQueue(float* x, float* y, float* z, bool tbuf_before_enque) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inX;
  AscendC::TBuf<AscendC::TPosition::VECIN> bufY;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outZ;
  pipe.InitBuffer(inX, 1, kN * sizeof(float));
  pipe.InitBuffer(bufY, kN * sizeof(float));
  pipe.InitBuffer(outZ, 1, kN * sizeof(float));
  AscendC::GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer(x, kN);
  yg.SetGlobalBuffer(y, kN);
  zg.SetGlobalBuffer(z, 2 * kN);
  AscendC::LocalTensor<float> yl = bufY.Get<float>();
  for (int round = 0; round < 2; ++round) {
    AscendC::LocalTensor<float> xl = inX.AllocTensor<float>();
    AscendC::DataCopy(xl, xg, kN);
    if (tbuf_before_enque) AscendC::DataCopy(yl, yg, kN);
    inX.EnQue(xl);
    if (!tbuf_before_enque) AscendC::DataCopy(yl, yg, kN);
    xl = inX.DeQue<float>();
    AscendC::LocalTensor<float> zl = outZ.AllocTensor<float>();
    AscendC::Add(zl, xl, yl, kN);
    outZ.EnQue(zl);
    inX.FreeTensor(xl);
    zl = outZ.DeQue<float>();
    AscendC::DataCopy(zg[round * kN], zl, kN);
    outZ.FreeTensor(zl);
  }
}

TEST(QueueFlags, TBufFilledBeforeAQueuesEnQueIsOrdered) {
  Gm x(kN), y(kN), z(2 * kN);
  ExpectClean(Launch(k910B, [&] { TBufBesideAQueue(x.p, y.p, z.p, true); }));
  EXPECT_EQ(z.p[kN + 4], 8.0f);
}

TEST(QueueFlags, TBufFilledAfterTheEnQueIsNotOrdered) {
  Gm x(kN), y(kN), z(2 * kN);
  const Result r = Launch(k910B, [&] { TBufBesideAQueue(x.p, y.p, z.p, false); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("read-after-write hazard"), std::string::npos) << m;
  EXPECT_NE(m.find("V Add"), std::string::npos) << m;
  // Round 2's refill of the TBuf comes after the AllocTensor that waits for round 1's
  // FreeTensor, which followed round 1's Add: that read is ordered before the refill.
  EXPECT_EQ(m.find("write-after-read"), std::string::npos) << m;
}

// --- 3510: buffer IDs shared by TBufPools. -----------------------------------------------------

// tbufpool_management scenario 1's pattern: pool2 shares pool1's memory and buffer IDs; each
// stage copies in, adds and copies out through three queues, and Reset (PipeBarrier on MTE2, MTE3
// and V on 3510) separates them. Stage 2's queues take pool1's IDs in the same order, so their
// AllocTensors wait for stage 1's FreeTensors of the same bytes. With `tbuf_first`, stage 2 puts
// a TBuf (no buffer ID) over stage 1's first input: nothing orders its copy after stage 1's Add.
class TwoStages {
 public:
  TwoStages(float* x, float* y, float* z) {
    xg_.SetGlobalBuffer(x, kN);
    yg_.SetGlobalBuffer(y, kN);
    zg_.SetGlobalBuffer(z, 2 * kN);
  }
  void Run(bool tbuf_first) {
    constexpr uint32_t kBytes = kN * sizeof(float);
    pipe_.InitBufPool(pool1_, 3 * kBytes);
    pipe_.InitBufPool(pool2_, 3 * kBytes, pool1_);
    pool1_.InitBuffer(in0_, 1, kBytes);
    pool1_.InitBuffer(in1_, 1, kBytes);
    pool1_.InitBuffer(out0_, 1, kBytes);
    Stage(in0_, in1_, out0_, 0);
    pool1_.Reset();
    if (tbuf_first) {
      pool2_.InitBuffer(buf_, kBytes);
      pool2_.InitBuffer(in3_, 1, kBytes);
      AscendC::LocalTensor<float> t = buf_.Get<float>();
      AscendC::DataCopy(t, xg_, kN);
    } else {
      pool2_.InitBuffer(in2_, 1, kBytes);
      pool2_.InitBuffer(in3_, 1, kBytes);
      pool2_.InitBuffer(out1_, 1, kBytes);
      Stage(in2_, in3_, out1_, 1);
    }
    pool2_.Reset();
  }

 private:
  using In = AscendC::TQue<AscendC::TPosition::VECIN, 1>;
  using Out = AscendC::TQue<AscendC::TPosition::VECOUT, 1>;
  void Stage(In& a, In& b, Out& c, int round) {
    AscendC::LocalTensor<float> al = a.AllocTensor<float>();
    AscendC::LocalTensor<float> bl = b.AllocTensor<float>();
    AscendC::DataCopy(al, xg_, kN);
    AscendC::DataCopy(bl, yg_, kN);
    a.EnQue(al);
    b.EnQue(bl);
    al = a.DeQue<float>();
    bl = b.DeQue<float>();
    AscendC::LocalTensor<float> cl = c.AllocTensor<float>();
    AscendC::Add(cl, al, bl, kN);
    c.EnQue(cl);
    a.FreeTensor(al);
    b.FreeTensor(bl);
    cl = c.DeQue<float>();
    AscendC::DataCopy(zg_[round * kN], cl, kN);
    c.FreeTensor(cl);
  }

  AscendC::TPipe pipe_;
  AscendC::TBufPool<AscendC::TPosition::VECCALC> pool1_, pool2_;
  In in0_, in1_, in2_, in3_;
  Out out0_, out1_;
  AscendC::TBuf<AscendC::TPosition::VECIN> buf_;
  AscendC::GlobalTensor<float> xg_, yg_, zg_;
};

TEST(BufIds, SharedPoolWaitsForTheFirstPoolsFreeTensor) {
  Gm x(kN), y(kN), z(2 * kN);
  ExpectClean(Launch(k950, [&] { TwoStages(x.p, y.p, z.p).Run(false); }));
  EXPECT_EQ(z.p[kN + 3], 6.0f);
}

TEST(BufIds, TBufInASharedPoolHasNoBufferId) {
  Gm x(kN), y(kN), z(2 * kN);
  const Result r = Launch(k950, [&] { TwoStages(x.p, y.p, z.p).Run(true); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("write-after-read hazard on UB bytes [0, 1024)"), std::string::npos) << m;
  EXPECT_NE(m.find("V Add"), std::string::npos) << m;
  EXPECT_NE(m.find("MTE2 DataCopy(GM->UB)"), std::string::npos) << m;
}

// The same kernel on 2201: Reset waits for the pools' pending FreeTensor flags (the vendor's
// 2201 Reset), which order everything V did before them.
TEST(BufIds, TwoStagesOn2201AreOrderedByReset) {
  Gm x(kN), y(kN), z(2 * kN);
  ExpectClean(Launch(k910B, [&] { TwoStages(x.p, y.p, z.p).Run(false); }));
  ExpectClean(Launch(k910B, [&] { TwoStages(x.p, y.p, z.p).Run(true); }));
}

}  // namespace
