// What AscendQuant's and AscendDequant's 2201/2002 sequences leave in their scratch
// (sharedTmpBuffer, or the stack buffer the overloads without it pop), with dst and the
// scale/offset tensors they convert in place: a replay of the kit's loops, instruction by
// instruction, over the bytes the device sees.
//
// Provenance: written from impl/adv_api/detail/quantization/quant/ascend_quant_pre_impl.h
// (AscendQuantCalc, AscendQuantImplStatic, AscendQuantPerChannelImpl, the *IntrinsicsImpl
// functions), ascend_quant_v220_impl.h and ascend_quant_v200_impl.h (2201 and 2002 both call
// AscendQuantCalc: one sequence) and ascend_quant_common_impl.h (the stack-buffer overloads),
// read for this file by the same helper who then modelled the scratch in lngrad (a separate
// reading, before lngrad's code was compared). AscendDequant: written the same way from
// impl/adv_api/detail/quantization/dequant/ascend_dequant_common_impl.h (AscendDequantTmpCalc,
// CastDeqscale, CastSrc, DequantMul, CastDst, CalculateByInner, AscendDequantImpl and
// AscendDequantScalarImpl, the Calcount / NoCalcount forms; 2002 differs there only in the
// type pairs it allows and in GetFP32CastMode, which only bfloat16 destinations see). No code is
// shared with src/ or include/; the element conversions are replay.h's. Session 18, helper aq2
// re-read ascend_quant_pre_impl.h for the scalars (static_cast<half>: FloatToHalf, not the
// Cast's saturation) and for the per-channel rows with config.scaleCount and workLocalSize set
// but calcCount 0 (rows of the runtime scaleCount, each of config.scaleCount elements): this
// replay already did both; its tests now exercise them.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::qscr {

// One call: T (half or float), the count and scale-count arguments, the scratch's size in bytes
// (sharedTmpBuffer.GetSize()) and the AscendQuantConfig's four counts.
struct QuantCall {
  bool isHalf = false;
  uint32_t calCount = 0;
  uint32_t scaleCount = 0;
  uint32_t tmpBytes = 0;
  uint32_t cfgCalc = 0, cfgOffset = 0, cfgScale = 0, cfgWork = 0;
};

// The operands as the device's bytes: src, scale and offset tensors of T (scale/offset: per
// channel only; offset empty for the scalar-offset form), dst int8, the scratch.
struct QuantMem {
  std::vector<uint8_t> src, scale, offset;
  std::vector<int8_t> dst;
  std::vector<uint8_t> tmp;
};

// AscendQuant per tensor (scale, offset scalars). False where the kit asserts (splitSize 0).
bool ReplayQuantPerTensor(const QuantCall& c, float scale, float offset, QuantMem& m);

// AscendQuant per channel (scale tensor; offset tensor, or offsetScalar when m.offset is empty:
// the scalar as T's value). False where the kit asserts (splitSize 0, a count of 0).
bool ReplayQuantPerChannel(const QuantCall& c, float offsetScalar, QuantMem& m);

// ---- AscendDequant ----

enum class DqScale { kFloat, kBf16, kU64, kScalarFloat, kScalarBf16 };
enum class DqDst { kFloat, kHalf, kBf16 };

// One call: the DequantParams {m, n, calCount} as the form builds them (the forms without
// DequantParams: {srcSize / scaleSize, scaleSize, scaleSize}), `pure` for the DequantParams
// forms, `count` the elements the form converts (m * n, or the calCount argument),
// DEQUANT_WITH_SINGLE_ROW or not, the scratch's size in bytes.
struct DequantCall {
  DqScale scale = DqScale::kFloat;
  DqDst dst = DqDst::kFloat;
  uint32_t m = 0, n = 0, calCount = 0;
  bool pure = true;
  uint32_t count = 0;
  bool singleRow = true;
  uint32_t tmpBytes = 0;
};

// src: int32 elements; scale: the scale tensor's bytes (or the scalar's: 4 bytes float, 2
// bfloat16); dst: bytes of dst's type.
struct DequantMem {
  std::vector<uint8_t> src, scale, dst, tmp;
};

// False where the kit asserts or divides by zero (n or the scratch's float rows 0).
bool ReplayDequant(DequantCall c, DequantMem& m);

}  // namespace lngrad_replay::qscr
