// The 950 Sort's RADIX_SORT (lib/sort/sort.h): with both indexes and sharedTmpBuffer
// (isReuseSource false) its scratch holds what the kit's passes leave, so reading it afterwards
// is clean; the overloads without indexes or with dstIndex only (sort_impl.h's other layouts),
// and isReuseSource, leave sharedTmpBuffer marked unmodelled (initcheck reports a later read,
// naming Sort); with isReuseSource (2 or 4-byte values) srcTensor and srcIndexTensor, where the
// kit's even passes leave their values and indexes, are marked too (the probe reads the source
// there: the Ops' tmp passed as srcTensor).
#include <gtest/gtest.h>

#include <cstdint>

#include "kernel_operator.h"
#include "scratch_harness.h"

namespace {

using namespace AscendC;                            // NOLINT(google-build-using-namespace)
using namespace lngrad::aicore::san_test::scratch;  // NOLINT(google-build-using-namespace)

constexpr SortConfig kRadix = {SortType::RADIX_SORT, true};
constexpr uint32_t kCount = 64;

void ExpectLoud(const Call& call) { ExpectLoudIn("scratch_sort_test.cpp", k950, "Sort", call); }

TEST(ScratchInitcheck, SortRadix950WithBothIndexesIsModelledNotMarked) {
  ExpectClean(RunScratch(k950, san::kAllTools, Then::kRead, [](Ops& o) {
                Sort<float, uint32_t, false, kRadix>(
                    o.a.ReinterpretCast<float>(), o.d.ReinterpretCast<uint32_t>(),
                    o.b.ReinterpretCast<float>(), o.c.ReinterpretCast<uint32_t>(), o.tmp, kCount);
              }).r);
}

TEST(ScratchInitcheck, SortRadix950OtherLayoutsAreMarked) {
  ExpectLoud([](Ops& o) {  // no indexes
    LocalTensor<float> dst = o.a.ReinterpretCast<float>();
    Sort<float, false, kRadix>(dst, o.b.ReinterpretCast<float>(), o.tmp, kCount);
  });
  ExpectLoud([](Ops& o) {  // dstIndex only
    LocalTensor<float> dst = o.a.ReinterpretCast<float>();
    LocalTensor<uint32_t> di = o.d.ReinterpretCast<uint32_t>();
    Sort<float, false, kRadix>(dst, di, o.b.ReinterpretCast<float>(), o.tmp, kCount);
  });
  ExpectLoud([](Ops& o) {  // both indexes, isReuseSource
    Sort<float, uint32_t, true, kRadix>(
        o.a.ReinterpretCast<float>(), o.d.ReinterpretCast<uint32_t>(), o.b.ReinterpretCast<float>(),
        o.c.ReinterpretCast<uint32_t>(), o.tmp, kCount);
  });
}

TEST(ScratchInitcheck, SortRadix950ReuseSourceMarksSrcAndSrcIndex) {
  ExpectLoud([](Ops& o) {  // the source (the probe's bytes), no sharedTmpBuffer
    LocalTensor<float> dst = o.a.ReinterpretCast<float>();
    Sort<float, true, kRadix>(dst, o.tmp.ReinterpretCast<float>(), kCount);
  });
  ExpectLoud([](Ops& o) {  // srcIndexTensor (the probe's bytes)
    Sort<float, uint32_t, true, kRadix>(
        o.a.ReinterpretCast<float>(), o.d.ReinterpretCast<uint32_t>(), o.b.ReinterpretCast<float>(),
        o.tmp.ReinterpretCast<uint32_t>(), kCount);
  });
}

}  // namespace
