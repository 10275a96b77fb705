// lngrad_replay, the SoftMax family on arch 2201 (membase/v220 and membase/common of the toolkit's
// impl/adv_api/detail/activation/softmax/), replayed from a second reading of that source and
// docs/ascendc_kernels.md §2 only. No code shared with src/ or include/ascendc/adv.
//
// Every API works on ND rows of srcK elements (the first oriK of them reduced), in splits of the
// tiling's rows; statistics are [rows, reduceK] (every entry of a row the same value).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// SoftMaxTiling, the toolkit's field order (same 64 bytes as the kernel struct).
struct SmxTiling {
  uint32_t srcM, srcK, srcSize, outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize, reduceM,
      reduceK, reduceSize, rangeM, tailM, tailSplitSize, tailReduceSize;
};
static_assert(sizeof(SmxTiling) == 64);

// Float to half with the 2201 softmax's FLOAT2HALF_ROUND_MODE (CAST_ROUND): nearest, ties away
// from zero; overflow to inf, NaN to a quiet NaN.
Half FloatToHalfRoundAway(float f);

// The per-row reductions of softmax_common_nd_reduce.h over the first k values of row:
// NewReduceSumLastNDImpl / NewReduceMaxLastNDImpl (the 64-lane accumulator, then its tree) and
// ReduceSumLastNDImpl (SoftmaxGrad: each chunk's eight block sums, then the tail's tree added).
float SmxRowSum(const float* row, uint32_t k);
float SmxRowMax(const float* row, uint32_t k);
float SmxGradRowSum(const float* row, uint32_t k);
// NewReduceMaxLastNDImpl's row max with NaN and signed zeros as the kit's instruction order
// gives them (session 19, smr): row of a split of `rows` rows (NextBlockMaxImpl's Max operand
// order depends on rows > k / 64), the lane reductions first-NaN / first-extreme; v200: the 2002
// file's Adds 0 (FirstBlockCopyImpl, and BasicBlockReduceMaxImpl with rows > 1) make -0 +0.
// SmxRowMax above is the old adjacent-pair tree (equal to it without NaN and zero ties).
float SmxKitRowMax(const float* row, uint32_t k, uint32_t rows, bool v200);

// SoftMax with statistics (SoftMaxNDExtImpl / SoftMaxGenericNDImpl). T = float or Half; S =
// T, or float with T = Half. oriK = SoftMaxShapeInfo::oriSrcK. dst may be src. basic
// (isBasicBlock, SoftMaxBasicBlock): rows reduced over splitK columns in BasicBlockAddImpl's
// order, the rangeM full splits only (the basic-block path has no tail split). v200 (2002): the
// max's Adds 0 (SmxKitRowMax) and, outside basic, TransDivToMulImpl's x * (1 / sum).
template <class T, class S>
void ReplaySoftMax(const SmxTiling& t, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
                   bool basic = false, bool v200 = false);

// SoftMax with the constant-shape config on 2201 (config.oriSrcM = cfgM and config.oriSrcK = cfgK,
// both non-zero; replay_softmax_cfg.cpp, sfxc's reading). With statistics (sum non-null) and
// cfgK % 64 == 0, cfgK < 2048, cfgM % 8 == 0: the basic path of ReplaySoftMax (whatever
// isBasicBlock). Otherwise the generic split loop with the reductions over the first cfgK
// values of row i of a split read at i * splitK (splitK = cfgK rounded up to 8; the Sub, Exp
// and Div at the tiling's srcK), statistics [rows, 16] for half data with half statistics, else
// [rows, 8] (the tiling's reduceK must be that with statistics; without them, a reduceK below
// that stride makes the Sub and Div of row r read split row r * reduceK / stride's). No statistics
// (SingleSoftMaxImpl): sum = max = nullptr; reuseSrc (float isReuseSource) leaves the exponentials
// in src.
template <class T, class S>
struct CfgIo {
  T* src;
  T* dst;
  S* sum;
  S* max;
  bool reuseSrc;
};
template <class T, class S>
void ReplaySoftMaxConfig(const SmxTiling& t, uint32_t cfgM, uint32_t cfgK, const CfgIo<T, S>& io);

// SoftMax with isDataFormatNZ (SoftMaxNZImpl, replay_softmax_nz.cpp): src/dst are [srcK / 16,
// srcM, 16] fractals, rows 0 .. rangeM * splitM + tailM - 1 computed; oriK = the original K
// (the last fractal's first oriK % 16 columns valid, all 16 when 0). Statistics [rows, 32
// bytes of S] at split * reduceSize. float dst keeps the last fractal's padding columns; half
// dst gets them back from src (cast to float and back).
template <class T, class S>
void ReplaySoftMaxNz(const SmxTiling& t, uint32_t oriK, const T* src, T* dst, S* sum, S* max);

// SimpleSoftMax with isDataFormatNZ (SimpleSoftMaxNZImpl): every column of rows 0 .. rangeM *
// splitM + tailM - 1 (no mask), exp(x - inMax) / inSum with column c reading lane c % 16 of
// half statistics ([rows, 16]) or lane c % 8 of float ones ([rows, 8]).
template <class T, class S>
void ReplaySimpleSoftMaxNz(const SmxTiling& t, const T* src, const S* inSum, const S* inMax,
                           T* dst);

// AdjustSoftMaxRes with isDataFormatNZ (AdjustSoftMaxResNZImpl): rows j < m whose max at j *
// (32 bytes of S) has the bits of `from` (half: its low 16) get all 16 columns of row j in each
// of the k / 16 fractals set to `to` (stepSizeMode plays no part).
template <class T, class S>
bool ReplayAdjustSoftMaxResNz(uint32_t m, uint32_t k, T* res, const S* max, uint32_t from, T to);

// SoftmaxGrad / SoftmaxGradFront with isDataFormatNZ (softmax_grad_nz_impl.h): s = the NZ row
// sum of src * grad over rows 0 .. rangeM * splitM + tailM - 1; isFront: dst = s as [rows, 32
// bytes of T] at split * reduceSize (every lane of the last fractal summed); else dst = (grad -
// s) * src on every column, s summing the last fractal's first oriK % 16 lanes only for the
// split's last rows % 4 rows (its tail repeat) or a single fractal, all 16 otherwise.
template <class T>
void ReplaySoftmaxGradNz(const SmxTiling& t, uint32_t oriK, const T* grad, const T* src, T* dst,
                         bool isFront);
// The kernel-side SoftMaxGradTilingFunc with isDataFormatNZ, for the re-tile.
SmxTiling SmxNzGradTiling(uint32_t workFloats, uint32_t m, uint32_t k, uint32_t typeSize);

// SoftmaxFlashV2 with isDataFormatNZ and isUpdate = false (SoftmaxFlashV2NZNoUpdateImpl, i.e.
// SoftMaxGenericNZImpl<isFlashV2 = true>): per row max, exp(x - max) and the NZ sum as SoftMax
// NZ, no Div; dst gets every lane of the work buffer (the last fractal's masked lanes: src). The
// rows of the tiling t (SmxNzFlashV2Tiling, srcM rows), the last split less the srcM - oriM
// padding rows when it holds more.
template <class T, class S>
void ReplaySoftmaxFlashV2NzNoUpdate(const SmxTiling& t, uint32_t oriM, uint32_t oriK, const T* src,
                                    T* dst, S* expSum, S* max);
SmxTiling SmxNzFlashV2Tiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t statBytes);

// SoftmaxFlashV2 with isDataFormatNZ and isUpdate (FlashV2NZUpdateGenericImpl), rows as the
// no-update form. Statistics lane by lane (8 float or 16 half lanes per row): max_l =
// Max(inMax_l, rowmax), expMax_l = exp(inMax_l - max_l), dst = exp(x - max_((c % 16) % lanes))
// on the valid columns (every lane of dst written), expSum_l = expMax_l * inExpSum_l + rowsum.
// expMax: [rows, 16] halves for half data (lane l % lanes), [rows, 8] floats for float data.
template <class T, class S>
struct NzFlashV2Io {
  const T* src;
  T* dst;
  S* expSum;
  S* max;
  T* expMax;
  const S* inExpSum;
  const S* inMax;
};
template <class T, class S>
void ReplaySoftmaxFlashV2NzUpdate(const SmxTiling& t, uint32_t oriM, uint32_t oriK,
                                  const NzFlashV2Io<T, S>& io);

// The kernel-side SoftMaxTilingFunc with isDataFormatNZ (softmax_tiling_func.h): rows per split
// = workFloats / (16 + srcK), rounded down to a multiple of 8 when between 8 and oriM, at most
// oriM; statBytes = sizeof(S).
SmxTiling SmxNzTiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t oriM,
                      uint32_t statBytes);

// SoftMax without statistics (SingleSoftMaxImpl). float + isReuseSource leaves exp(x - max) in
// src (every srcK column of each row); half ignores isReuseSource.
template <class T>
void ReplaySoftMaxNoStats(const SmxTiling& t, uint32_t oriK, T* src, T* dst, bool isReuseSource);

// SimpleSoftMax (SimpleSoftMaxNDImpl): exp(x - inMax) / inSum over every srcK column; column c
// reads lane c % 8 of its row's statistics (they need not be equal across the row).
template <class T, class S>
void ReplaySimpleSoftMax(const SmxTiling& t, const T* src, const S* inSum, const S* inMax, T* dst);

// SimpleSoftMax with isBasicBlock on 2201 (SimpleSoftMaxBasicBlock; replay_softmax_basic.cpp,
// sfx4's reading): the Sub and Div step 64 * (splitK / 64) columns a repeat, so with srcK not a
// multiple of 64 rows are mixed and columns left with exp(x) only; float data the device branch
// (counter mode over the whole tensor), half data per split (rangeM; the tail split not
// computed). dst: the elements the device writes (float: srcSize; half: the splits' uint8(splitSize
// / 64) * 64); must start as dst's memory (float: the Exp reads what the Sub did not write).
template <class T, class S>
void ReplaySimpleSoftMaxBasic(const SmxTiling& t, const T* src, const S* inSum, const S* inMax,
                              T* dst);

// LogSoftMax (LogSoftMaxNDImpl): SoftMax's steps, then Ln and a Muls by 0.4342944819f. Its
// kernel re-splits rows from the tmp buffer's size (SmxKernelTiling: its splits cover oriSrcM
// rows, which the caller passes as m); the values do not depend on the split otherwise, but for
// a NaN or a zero tie with oriK in [128, 512), where NextBlockMaxImpl's order depends on the rows
// of the split (replayed as one split of m rows). Statistics are [m, 32 bytes of T].
template <class T>
void ReplayLogSoftMax(uint32_t m, uint32_t srcK, uint32_t oriK, const T* src, T* dst, T* sum,
                      T* max);

// SoftmaxGrad / SoftmaxGradFront (softmax_grad_nd_impl.h): s = ReduceSumLastNDImpl of src * grad
// over the first oriK columns; isFront: dst = s as [rows, reduceK]; else dst = (grad - s) * src
// over every srcK column. Splits: rangeM of splitM rows, then the tail.
// basic (SoftmaxGradFront with isBasicBlock): the rangeM full splits sum each row's splitK
// products chunk after chunk per lane, then the 64-lane tree; the tail split keeps the
// ReduceSumLastNDImpl order.
template <class T>
void ReplaySoftmaxGrad(const SmxTiling& t, uint32_t oriK, const T* grad, const T* src, T* dst,
                       bool isFront, bool basic = false);

// SoftmaxFlashV2 in the broadcast mode, generic (non-basic-block) path
// (softmax_flashv2_{no_update,update}_impl.h). T = float or Half; S = T, or float with T = Half.
// No update: max = row max, dst = exp(x - max), expSum = row sum of the float exp. Update,
// lane by lane j of each row's statistics: max_j = inMax_j > rowmax ? inMax_j : rowmax,
// expMax_j = exp(inMax_j - max_j), dst = exp(x - max_(c % 8)), expSum_j = expMax_j * inExpSum_j
// + rowsum. Half data with float statistics writes expMax as halves at [rows, 16] (the
// statistics' first 8 lanes twice). Outputs may alias inputs (expSum = inExpSum, max = inMax).
// basic (isBasicBlock, softmax_flashv2_basic_block_impl.h): the rangeM full splits only, row
// sums of softmax_flashv2_block_reduce_impl.h's BasicBlockReduceSumImpl over splitK columns:
// K = 512: tree of the eight chunks' 64-lane trees; K = 1024 (8-row splits): tree over l of
// tree(chunk l) + tree(chunk l + 8); K = 64: the tree; K > 512: the BigBlock start; else
// BasicBlockAddImpl. v200 (session 20): dav-2002, whose NewReduceMaxLastNDImpl copies with
// Adds 0 (KitRowMax's v200) and whose float update stores max by Adds(.., 0).
template <class T, class S>
void ReplaySoftmaxFlashV2(const SmxTiling& t, uint32_t oriK, bool isUpdate, const T* src, T* dst,
                          S* expSum, S* max, T* expMax, const S* inExpSum, const S* inMax,
                          bool basic = false, bool v200 = false);

// SoftmaxFlash (deprecated, softmax_common_flash.h, softmax_flash_nd_process_impl.h; generic
// path), T = float or Half with statistics of T. No update: ReplaySoftMax. Update, per row:
// e = exp(x - rowmax), rowmax in ReduceMaxLastNDImpl's order (session 24, tie2: chunk 0's block
// maxima, Max(acc, chunk c's), the block level, Max(row, tail); NewReduceMaxLastNDImpl's with a
// pair tree of Max before), s = the SoftmaxGrad-order row sum of e; lane by lane j: max_j =
// Max(inMax_j, rowmax), a_j = exp(rowmax - max_j), b_j = exp(inMax_j - max_j) * inSum_j,
// sum_j = b_j + a_j * s, expMax_j = b_j / sum_j; dst = e * (a / sum) at lane c % 8.
template <class T>
void ReplaySoftmaxFlash(const SmxTiling& t, uint32_t oriK, bool isUpdate, const T* src, T* dst,
                        T* sum, T* max, T* expMax, const T* inSum, const T* inMax);

// The operands of the flash forms' basic-block replays (replay_softmax_basic.cpp). src is
// written where the device writes it; sum/max may be inSum/inMax (read before written).
template <class T, class S>
struct FlashIo {
  T* src;
  T* dst;
  S* sum;
  S* max;
  T* expMax;
  S* inSum;
  const S* inMax;
};

// SoftmaxFlash with isUpdate and isBasicBlock on 2201 (SoftmaxFlashBasicBlock[Float]), the
// rangeM full splits of t (the caller replays a tail split: the generic path for half data,
// nothing for float). Per row over all splitK columns: rowmax and rowsum of e = exp(x - rowmax)
// as BlockReduce twice over the 64-lane chunk fold, e / rowsum; lane by lane l of the
// statistics: max = Max(inMax, rowmax), a = exp(rowmax - max) * rowsum, b = exp(inMax - max) *
// inSum, sum = b + a, expMax = b / sum; result = (e / rowsum) * (a / sum) at lane c % 8, into src
// for float data (dst untouched), into dst for half. expMax [rows, 32 B of T] (half data with
// float statistics: lane l % 8).
template <class T, class S>
void ReplaySoftmaxFlashBasic(const SmxTiling& t, const FlashIo<T, S>& io);

// SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode with isBasicBlock (the M1 basic-block path):
// one statistic per row, the rangeM full splits only. max = BasicBlockReduceMaxImpl (update:
// Max(inMax, it)), dst = exp(x - max), s = BasicBlockReduceSumImpl (the 512 and 1024 special
// trees, BigBlockReduceSum beyond 512, the chunk fold below); update: expMax = exp(inMax - max),
// sum = expMax * inSum + s. Float data without update leaves x - max in src; float statistics
// with update leave expMax * inSum in inSum.
template <class T, class S>
void ReplayFlashV2M1Basic(const SmxTiling& t, bool isUpdate, const FlashIo<T, S>& io);

// SoftmaxFlashV2 in the broadcast mode with isBasicBlock on 2201
// (softmax_flashv2_basic_block_impl.h): the rangeM full splits only; per row over all splitK
// columns (oriSrcK is not read): rowmax = BasicBlockReduceMaxImpl; lane by lane l of the
// statistics: max = rowmax (update: Max(inMax, rowmax)), expMax = exp(inMax - max); x - max at
// lane c % 8, Exp; sum = BasicBlockReduceSumImpl (update: expMax * inSum + it). Float data
// without update leaves x - max in src; float data with update leaves expMax * inSum in inSum.
// expMax [rows, 32 B of T] (half data with float statistics: lane l % 8).
template <class T, class S>
void ReplayFlashV2Basic(const SmxTiling& t, bool isUpdate, const FlashIo<T, S>& io);

// SoftmaxFlashV2 with the constant-shape config in the broadcast mode on 2201 or 2002, outside
// the config's basic shape (replay_softmax_cfg.cpp, sfx6's reading): the split loop of the
// tiling t (the one the kernel runs: the caller's re-tile included) with row i of a split
// reduced (max, then sum of the exponentials) over the first cfgK values at i * splitK (splitK =
// cfgK rounded up to 8), the Sub at the tiling's srcK (lane c % 8), statistics [rows, 32 B of
// S] lane by lane (update: max = Max(inMax, rowmax), expMax = exp(inMax - max), sum = expMax *
// inSum + rowsum). arch2002: half results nearest even, the float update's max + 0.
struct FlashCfgRun {
  bool update, arch2002;
};
template <class T, class S>
void ReplaySoftmaxFlashV2Config(const SmxTiling& t, uint32_t cfgK, const FlashCfgRun& run,
                                const FlashIo<T, S>& io);

// The kernel's re-tile of SoftmaxFlashV2 for a tiling made for another shape (config.isCheckTiling;
// SoftMaxFlashV2TilingFuncImpl, ND, broadcast mode): rows per split from the work buffer's floats.
SmxTiling SmxFlashV2Tiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t typeSize1,
                           uint32_t typeSize2, bool isBasicBlock);

// The 2201/2002 kernel's re-tile of SoftMax and SimpleSoftMax for a tiling made for another
// shape (SoftMaxTilingFunc of softmax_tiling_func.h, ND): splits over oriM rows.
SmxTiling SmxKernelTiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t oriM,
                          uint32_t typeSize1, uint32_t typeSize2, bool isBasicBlock);

// The 2201/2002 kernel's re-tile of SoftmaxGrad / SoftmaxGradFront (ND) for a tiling made for
// another shape (SoftMaxGradTilingFunc of softmax_tiling_func.h): splits over srcM rows.
SmxTiling SmxGradTiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t typeSize,
                        bool isFront, bool isBasicBlock);

// SoftmaxFlash's re-tile with isUpdate and isBasicBlock (SoftMaxFlashTilingFunc): rows per split.
uint32_t SmxFlashBasicRows(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t blk);

// AdjustSoftMaxRes (AdjustSoftMaxResNDImpl): for each of m rows, the bits of the max at
// row * step (step: 32 bytes of S, or 1 with stepSizeMode != 0; half compares the low 16 bits
// of `from`) equal to `from` set the row's k results to `to`. Returns whether any row did.
template <class T, class S>
bool ReplayAdjustSoftMaxRes(uint32_t m, uint32_t k, T* res, const S* max, uint32_t from, T to,
                            bool stepSizeMode);

// SoftmaxFlashV3 (membase/v220/softmax_flashv3_impl.h), half data, float statistics with
// reduceK = 8, srcK = oriK a multiple of 64 and at least 512, splitMeanCnt 8. ModifyInputImpl:
// the 64-lane BigBlock accumulator, L_b = tree8(lanes 8b..8b+7) * (1 / baseK), G = tree8(L),
// meanTmp = G * 0.125, x -= (meanTmp - L_b) * (alpha / (1 - alpha)) on segment b. Then no
// update or update (loopCnt) with every statistic op run lane by lane through the given
// pointers in the source's order, so outputs aliasing inputs behave as on the device.
struct FlashV3Stats {
  float* mean;
  float* expSum;
  float* max;
  const float* inMean;
  const float* inExpSum;
  const float* inMax;
};
void ReplaySoftmaxFlashV3(const SmxTiling& t, uint32_t oriK, uint32_t loopCnt, float alpha,
                          bool isUpdate, const Half* src, Half* dst, Half* expMax,
                          const FlashV3Stats& st);

}  // namespace lngrad_replay
