// lngrad's Pad and UnPad on the 950 (Ascend950PR_9589), compared bit for bit with a replay of
// the kit's register code, impl/adv_api/detail/pad/pad/pad_3510_impl.h (commit 82b89a15f):
// PadCompute's choice (srcWidth * sizeof(T) a multiple of 32: AlignedPad, else UnAlignedPad),
// SetLeftPadMask / SetRightPadMask (UpdateMask of leftPad; the lanes from
// srcOriWidth - regBlockCntPerRow * lanes to that + rightPad, computed in uint32_t), and each
// function's loads, merging Duplicates and stores as written; UnPadCompute's UnPad. The checks
// are those of api_check/kernel_check/pad/pad/pad_check_310.h and unpad_check_310.h.
// Provenance: a separate reading of the kit's source by the helper who then changed
// lib/pad/pad.h (the same person; the replay was written from the kit's file, lngrad's header
// had been read before).
//
// What the source makes visible, and the cases test: with rows of whole 32-byte blocks only the
// last register of a row gets pad values, and none when srcOriWidth lies before that register
// (the uint32_t difference wraps, UpdateMask selects every lane, MaskNot none); with other rows
// the right pad's lanes that the mask does not select keep what the register loaded, the
// elements after the row in src (the next row's, and past src for the last row).
#include <cstdint>
#include <vector>

#include "transform_3510_replay_util.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::transform3510;

// ---- The replay (pad_3510_impl.h) ----

// SetRightPadMask: (lanes below srcOriWidth + rightPad) and not (lanes below srcOriWidth), the
// counts as uint32_t.
std::vector<bool> RightPadMask(uint32_t srcOriWidth, uint16_t rightPad, uint32_t lanes) {
  uint32_t ori = srcOriWidth;
  const std::vector<bool> maskSrcOri = UpdateMask(ori, lanes);
  uint32_t withPad = srcOriWidth + rightPad;
  const std::vector<bool> maskWithPad = UpdateMask(withPad, lanes);
  std::vector<bool> m(lanes);
  for (uint32_t l = 0; l < lanes; ++l) m[l] = maskWithPad[l] && !maskSrcOri[l];
  return m;
}

template <typename T>
void ReplayPad(Image<T>& dst, const Image<T>& src, uint32_t h, uint32_t w, uint32_t ori,
               uint16_t leftPad, uint16_t rightPad, int32_t padValue) {
  constexpr uint32_t E = Lanes<T>();
  const T pad = static_cast<T>(padValue);
  uint32_t last = w % E;
  uint32_t cnt = w / E;
  if (w * sizeof(T) % 32 == 0) {  // AlignedPad
    if (last == 0) {
      cnt -= 1;
      last = E;
    }
    const std::vector<bool> lastOut = FirstLanes(last, E);
    const std::vector<bool> padMask = RightPadMask(ori - cnt * E, rightPad, E);
    size_t s = 0, d = 0;
    for (uint32_t i = 0; i < h; ++i) {
      for (uint32_t j = 0; j < cnt; ++j) {
        dst.StoreMasked(d, src.Load(s), FirstLanes(E, E));
        s += E;
        d += E;
      }
      std::vector<T> reg = src.Load(s);
      s += last;
      for (uint32_t l = 0; l < E; ++l) {
        if (padMask[l]) reg[l] = pad;
      }
      dst.StoreMasked(d, reg, lastOut);
      d += last;
    }
    return;
  }
  const std::vector<bool> leftMask = FirstLanes(leftPad, E);  // UnAlignedPad
  const std::vector<bool> padMask = RightPadMask(ori - cnt * E, rightPad, E);
  std::vector<T> reg(E, FromBits<T>(0x5A5A5A5Au));  // the register before its first write
  size_t s = 0, d = 0;
  for (uint32_t i = 0; i < h; ++i) {
    for (uint32_t l = 0; l < E; ++l) {
      if (leftMask[l]) reg[l] = pad;
    }
    dst.StoreRun(d, reg, leftPad);
    for (uint32_t j = 0; j < cnt; ++j) {
      reg = src.Load(s);
      s += E;
      dst.StoreRun(d, reg, E);
    }
    reg = src.Load(s);
    s += last;
    for (uint32_t l = 0; l < E; ++l) {
      if (padMask[l]) reg[l] = pad;
    }
    dst.StoreRun(d, reg, last + rightPad);
  }
}

template <typename T>
void ReplayUnPad(Image<T>& dst, const Image<T>& src, uint32_t h, uint32_t w, uint16_t rightPad) {
  constexpr uint32_t E = Lanes<T>();
  uint32_t last = w % E, cnt = w / E;
  if (last == 0) {
    cnt -= 1;
    last = E;
  }
  size_t s = 0, d = 0;
  for (uint32_t i = 0; i < h; ++i) {
    for (uint32_t j = 0; j < cnt; ++j) {
      dst.StoreRun(d, src.Load(s), E);
      s += E;
    }
    dst.StoreRun(d, src.Load(s), last - rightPad);
    s += last;
  }
}

// ---- lngrad against the replay ----

constexpr uint32_t kBuf = 32768;

struct PadCase {
  uint32_t h, w, ori;
  uint16_t left, right;
  int32_t value;
};

template <typename T>
void CheckPad(PadCase c, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "Pad " << sizeof(T) << "-byte " << c.h << "x" << c.w
                                    << " ori " << c.ori << " l " << c.left << " r " << c.right);
  const std::vector<T> srcImg = RandomBits<T>(seed, kBuf / sizeof(T));
  const std::vector<T> dstImg = RandomBits<T>(seed + 1, kBuf / sizeof(T));
  std::vector<T> got;
  On950({kBuf, kBuf, 1024}, [&](Bufs& b) {
    b.Put<T>(0, srcImg);
    b.Put<T>(1, dstImg);
    tiling::PadTiling t;
    t.srcHeight = c.h;
    t.srcWidth = c.w;
    t.srcOriWidth = c.ori;
    PadParams p(c.left, c.right, c.value);
    // src is exactly the rows: what the kit reads after them lies past the tensor, in the UB.
    Pad(b.Get<T>(1), b.Get<T>(0, c.h * c.w), p, b.Get<uint8_t>(2), t);
    got = b.Take<T>(1);
  });
  Image<T> dst{dstImg};
  const Image<T> src{srcImg};
  ReplayPad(dst, src, c.h, c.w, c.ori, c.left, c.right, c.value);
  EXPECT_EQ(FirstDiff(got, dst.mem), "");
}

template <typename T>
void CheckUnPad(uint32_t h, uint32_t w, uint16_t right, uint32_t seed) {
  SCOPED_TRACE(::testing::Message()
               << "UnPad " << sizeof(T) << "-byte " << h << "x" << w << " r " << right);
  const std::vector<T> srcImg = RandomBits<T>(seed, kBuf / sizeof(T));
  const std::vector<T> dstImg = RandomBits<T>(seed + 1, kBuf / sizeof(T));
  std::vector<T> got;
  On950({kBuf, kBuf, 1024}, [&](Bufs& b) {
    b.Put<T>(0, srcImg);
    b.Put<T>(1, dstImg);
    tiling::UnPadTiling t;
    t.srcHeight = h;
    t.srcWidth = w;
    UnPadParams p(0, right);
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(2);
    UnPad(b.Get<T>(1), b.Get<T>(0, h * w), p, tmp, t);
    got = b.Take<T>(1);
  });
  Image<T> dst{dstImg};
  ReplayUnPad(dst, Image<T>{srcImg}, h, w, right);
  EXPECT_EQ(FirstDiff(got, dst.mem), "");
}

// Rows of whole 32-byte blocks: the pad in the last register only.
TEST(PadReplay3510, AlignedRowsPadOnlyInTheLastRegister) {
  uint32_t seed = 10;
  CheckPad<float>({3, 72, 66, 0, 5, 7}, ++seed);    // pad inside the last register
  CheckPad<float>({3, 72, 60, 0, 4, 7}, ++seed);    // before it: none
  CheckPad<float>({2, 72, 62, 0, 4, -3}, ++seed);   // across its start: none
  CheckPad<float>({4, 64, 50, 0, 7, 9}, ++seed);    // one register a row
  CheckPad<float>({2, 136, 126, 0, 4, 1}, ++seed);  // three registers, before the last
  CheckPad<half>({3, 144, 130, 0, 10, 2}, ++seed);  // 128 + 16
  CheckPad<half>({3, 144, 120, 0, 12, 2}, ++seed);  // across: none
  CheckPad<half>({2, 256, 100, 0, 15, 3}, ++seed);  // two whole registers: the first, none
  CheckPad<half>({2, 256, 200, 0, 15, 3}, ++seed);
  CheckPad<int16_t>({5, 32, 17, 0, 9, 70000}, ++seed);
  CheckPad<uint32_t>({3, 80, 70, 0, 6, -1}, ++seed);
  CheckPad<int32_t>({1, 8, 3, 0, 5, 123456}, ++seed);
}

// Other rows: leftPad values, the row, the right pad; the pad's mask starts at srcOriWidth and
// the lanes it does not select keep the loaded elements after the row.
TEST(PadReplay3510, UnalignedRowsKeepTheLoadedElementsOutsideTheMask) {
  uint32_t seed = 40;
  CheckPad<float>({4, 13, 13, 1, 2, 5}, ++seed);
  CheckPad<float>({3, 70, 70, 1, 1, 5}, ++seed);  // 64 + 6
  CheckPad<half>({3, 127, 127, 1, 0, 5}, ++seed);
  CheckPad<half>({2, 250, 250, 3, 3, 5}, ++seed);  // 128 + 122
  CheckPad<float>({4, 15, 15, 1, 0, 5}, ++seed);   // no right pad
  CheckPad<float>({4, 13, 10, 1, 2, 5}, ++seed);   // srcOriWidth < width: next row's
  CheckPad<float>({3, 70, 50, 1, 1, 5}, ++seed);   // before the last register: no pad
  CheckPad<float>({3, 13, 14, 1, 2, 5}, ++seed);   // beyond the width: one loaded, one pad
  CheckPad<half>({3, 21, 19, 7, 4, -8}, ++seed);
  CheckPad<int16_t>({2, 140, 139, 2, 2, 70000}, ++seed);
  CheckPad<uint32_t>({5, 9, 9, 3, 4, 7}, ++seed);
}

TEST(PadReplay3510, UnPadKeepsTheFirstColumns) {
  uint32_t seed = 70;
  CheckUnPad<float>(7, 24, 5, ++seed);
  CheckUnPad<half>(5, 144, 13, ++seed);
  CheckUnPad<half>(3, 256, 1, ++seed);
  CheckUnPad<int32_t>(2, 8, 7, ++seed);
  CheckUnPad<uint16_t>(4, 16, 15, ++seed);
  CheckUnPad<float>(3, 200, 7, ++seed);
}

// pad_check_310.h / unpad_check_310.h: dst, src and sharedTmpBuffer may not be one tensor (the
// same start and size).
TEST(PadReplay3510, CheckedModeRefusesOneTensorTwice) {
  const auto pad = CheckOn950({kBuf, kBuf, 1024}, [](Bufs& b) {
    tiling::PadTiling t;
    t.srcHeight = 2;
    t.srcWidth = 16;
    t.srcOriWidth = 12;
    PadParams p(0, 4, 1);
    Pad(b.Get<float>(0), b.Get<float>(0), p, b.Get<uint8_t>(2), t);
  });
  EXPECT_EQ(pad.first, "transform_params") << pad.second;
  EXPECT_NE(pad.second.find("cannot be reused"), std::string::npos) << pad.second;
  const auto unpad = CheckOn950({kBuf, kBuf, 1024}, [](Bufs& b) {
    tiling::UnPadTiling t;
    t.srcHeight = 2;
    t.srcWidth = 16;
    UnPadParams p(0, 4);
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(0);
    UnPad(b.Get<float>(1), b.Get<float>(0), p, tmp, t);
  });
  EXPECT_EQ(unpad.first, "transform_params") << unpad.second;
  // Different sizes at one address are not one tensor for the kit's check.
  const auto part = CheckOn950({kBuf, kBuf, 1024}, [](Bufs& b) {
    tiling::UnPadTiling t;
    t.srcHeight = 2;
    t.srcWidth = 16;
    UnPadParams p(0, 4);
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(2);
    UnPad(b.Get<float>(0, 24), b.Get<float>(0), p, tmp, t);
  });
  EXPECT_EQ(part.first, "") << part.second;
}

}  // namespace
