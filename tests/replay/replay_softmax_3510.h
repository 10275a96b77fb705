// lngrad_replay, the SoftMax family on arch 3510 (the toolkit's register implementation,
// impl/adv_api/detail/activation/softmax/regbase/3510/), replayed register by register from a
// reading of that source, written apart from lngrad's implementation (include/ascendc/adv/lib/
// activation/softmax*.h) and sharing no code with it: a vector register is 64 float lanes, a mask
// one bit per lane, every masked instruction zeroes its unselected lanes (MaskMergeMode ZEROING),
// ReduceSum / ReduceMax are the adjacent-pair trees over the selected lanes (an empty data block
// of ReduceMaxWithDataBlock gives -inf, as ReduceDataBlock's page documents), half loads widen
// exactly and half stores round to nearest even (castTraitB32ToB16: CAST_RINT, no saturation).
// Exp is computed in double and rounded once, Log10 likewise (lngrad's documented choices);
// MulAddDst is one fused rounding.
//
// ND only: rows of srcK elements, the first oriK of them valid; statistics [rows, 32 bytes of S]
// (every lane of a row written). Loads of lanes past the data read 0 (the device reads whatever
// follows; those lanes are masked away).
#pragma once

#include <cstdint>

#include "replay.h"
#include "replay_softmax.h"

namespace lngrad_replay::r3510 {

// SoftMaxNDImpl with statistics (and, with flashV2, SoftmaxFlashV2NDNoUpdateImpl; with log,
// LogSoftMaxNDImpl): the dispatch on srcK = 8 (float data), srcK = 16, oriK <= 64, oriK % 64 and
// the rest. T = float or Half; S = T, or float with T = Half. Only the first oriK columns of dst
// are written. basic (isBasicBlock) takes SoftMaxGenericNDImpl: ceil(oriK / 64) whole registers
// (the padding columns up to there read, reduced and written). perRow (flashV2 in
// SOFTMAX_OUTPUT_WITHOUT_BRC mode, outputBrc false): one statistic per row; on the srcK = 8 and
// 16 paths for every row of their registers (past m in the last one: sum and max must hold them).
// memRows: the rows src holds in memory (loads past them read 0; at least m).
template <class T, class S>
void SoftMax(uint32_t m, uint32_t srcK, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
             bool basic = false, bool log = false, bool flashV2 = false, bool perRow = false,
             uint32_t memRows = 0);

// SoftMaxNZImpl (log: LogSoftMaxNZImpl, Log10 after the Div; flash: SoftmaxFlashV2NZ[WithTail]
// NoUpdateVFImpl, dst the exponentials, no Div), src/dst [srcK / 16, srcM, 16]: statistics of
// rows below min(oriM, 8 * (srcM / 8)); dst's first oriK columns of rows below oriM.
template <class T, class S>
void SoftMaxNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK, const T* src, T* dst,
               S* sum, S* max, bool log = false, bool flash = false);

// SimpleSoftMax in NZ (SimpleSoftMaxGenericNZImpl, sfx4's reading): every column of rows below
// oriM; column c of a fractal reads lane c of its row's half statistics, lane c / 2 of float ones.
template <class T, class S>
void SimpleSoftMaxNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, const T* src, const S* inSum,
                     const S* inMax, T* dst);

// SoftmaxGrad / SoftmaxGradFront in NZ (SoftmaxGradGenericNZ[WithTail]VFImpl): isFront: the row
// sums as [rows, 32 bytes of T] for rows below min(oriM, 8 * (srcM / 8)); else (grad - s) * src
// on the first oriK columns of rows below oriM.
template <class T>
void SoftmaxGradNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK, const T* grad,
                   const T* src, T* dst, bool isFront);

// SoftMaxNDImpl without statistics; isReuseSource with float data makes src the work buffer
// (the srcK = 8 and 16 paths store every column there, of every row of their registers: the
// last one's rows past m too, which src must hold; the others the first oriK columns; basic, the
// isBasicBlock SoftMaxGenericNDImpl, ceil(oriK / 64) whole registers). memRows: the rows src
// holds in memory (loads past them read 0; at least m).
template <class T>
void SoftMaxNoStats(uint32_t m, uint32_t srcK, uint32_t oriK, T* src, T* dst, bool reuse,
                    bool basic = false, uint32_t memRows = 0);

// SoftmaxGradFrontNDImpl / SoftmaxGradPostProcess (SoftMaxGradGenericNDVFImpl).
template <class T>
void SoftmaxGrad(uint32_t m, uint32_t srcK, uint32_t oriK, const T* grad, const T* src, T* dst,
                 bool isFront);

// How an update form is called: basic (isBasicBlock: the functions without a tail, whole
// registers); perRow (SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode: SoftmaxFlashV2M1ND
// [WithTail]UpdateVFImpl, one statistic and one expMax element per row); reduceMax (its
// isOutputReduceMax forms: the row max, one per row, stored first).
template <class S>
struct FlashUpdateMode {
  bool basic = false, perRow = false;
  S* reduceMax = nullptr;
};

// The update forms (io as the NZ FlashV2's, here ND rows): SoftmaxFlashV2ND[WithTail]UpdateImpl,
// or v1: SoftmaxFlashND[WithTail]Impl (sum = MulAddDst(expMax, inSum) + rowsum, expMax =
// expMax * inSum / sum, dst = exp / sum).
template <class T, class S>
void SoftmaxFlashUpdate(uint32_t m, uint32_t srcK, uint32_t oriK, const NzFlashV2Io<T, S>& io,
                        bool v1, const FlashUpdateMode<S>& mode = {});

// SimpleSoftMaxNDImpl: the statistics' lane 0 of each row (read at the row's start). whole:
// SimpleSoftMaxGenericNDImpl (pregFull: ceil(srcK / 64) whole registers at i * srcK + j * 64,
// each loaded, computed and stored before the next, so with srcK not a multiple of 64 a row's
// last register reads the next row's src and its store writes over the next row's first dst
// columns, the last row's past m * srcK; dst may be src); else SimpleSoftMaxGenericNDWithTailImpl
// (UpdateMask over srcK: every srcK column and no more). srcMem, dstMem: the elements src and dst
// hold in memory (0: m * srcK); loads past them read 0, stores past them are dropped.
template <class T, class S>
void SimpleSoftMax(uint32_t m, uint32_t srcK, const T* src, const S* inSum, const S* inMax, T* dst,
                   bool whole = false, uint32_t srcMem = 0, uint32_t dstMem = 0);

// SimpleSoftMaxNDImpl's choice of function: isBasicBlock takes the whole registers; else, with
// config.oriSrcM or config.oriSrcK zero (SOFTMAX_DEFAULT_CFG), tiling.srcK % 64 picks WithTail;
// with both set, config.oriSrcK % 64 does (whole registers when it is a multiple of 64, whatever
// the tiling's srcK).
bool SimpleSoftMaxWhole(bool isBasicBlock, uint32_t cfgOriSrcM, uint32_t cfgOriSrcK, uint32_t srcK);

// SoftmaxFlashV3Process (half data, float statistics): m and srcK are the tiling's (srcK a
// multiple of 64, at least 512); splitMeanCnt from 1 to min(64, srcK / 64), dividing srcK (other
// counts read the shifts at row * splitMeanCnt: another row's, or phase 2's sums); in phases over
// all rows (replay_softmax_3510.cpp, sfx4's reading).
void SoftmaxFlashV3(uint32_t m, uint32_t srcK, uint32_t splitMeanCnt, uint32_t loopCnt, float alpha,
                    bool isUpdate, const Half* src, Half* dst, Half* expMax,
                    const FlashV3Stats& st);

// SoftmaxFlashV2 with update in NZ (SoftmaxFlashV2NZ[WithTail]UpdateVFImpl; sfx5's reading,
// replay_softmax_3510_nz.cpp), src/dst [srcK / 16, srcM, 16]: the row max and sum over the first
// oriK columns (the NZ reduction order of SoftMaxNz); statistics lane by lane for rows below
// oriM (float statistics: and below 8 * (srcM / 8), the e2b loop's srcM / 8 registers): max =
// Max(inMax, rowmax), expMax = exp(inMax - max), expSum = rowsum + expMax * inExpSum; dst =
// exp(x - max) on the first oriK columns of rows below oriM, column c subtracting lane c % 16 of
// half statistics, lane (c % 16) / 2 of float ones; expMax [rows, 32 B of T]: float data the
// float lanes, half with half statistics lane c, half with float statistics lane c / 2. With
// float statistics oriM must be at most 8 * (srcM / 8) (the device reads its scratch beyond).
template <class T, class S>
void SoftmaxFlashV2NzUpdate(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK,
                            const NzFlashV2Io<T, S>& io);

// AdjustSoftMaxRes in NZ (AdjustSoftMaxResNZImpl of regbase/3510/softmax_impl.h; sfx5's
// reading): register i (256 bytes: 64 float or 128 half elements) of every fractal, that is
// rows i * 4 .. or i * 8 .. of each, is set to `to` when the max of row i (its first element at
// i * 32 bytes) has the bits `from` (16 bits for half statistics), for i < ceil(srcM * 16 /
// elements per register); the last register's store runs past the fractal (into the next one's
// first rows, past the tensor for the last fractal: kept below resMem). True when some row
// matched.
template <class T, class S>
bool AdjustSoftMaxResNz(uint32_t srcM, uint32_t srcK, T* res, const S* max, uint32_t from, T to,
                        uint64_t resMem);

}  // namespace lngrad_replay::r3510
