// lngrad Ascend C cube: the MX forms (the 950's Microscaling matrix multiply). LoadData with
// LoadData2DMxParams moves A/B to L0A/L0B as LoadData2DParamsV2 does and their e8m0 scales to the
// L0A_MX/L0B_MX buffers (4 KiB each, at the L0A/L0B address / 16); MmadMx computes
// C = (scaleA (x) A) x (scaleB (x) B) (+ bias), one scale per 32 K values. Layouts and the
// accumulation order: docs/ascendc_kernels.md, "The MX forms".
#pragma once

#include <type_traits>

#include "lngrad_cube/cube.h"

namespace lngrad::cube {

// The value of one code of an MX element type (fp8 e4m3/e5m2, fp4 e2m1/e1m2, e8m0).
float MxValue(Elem e, uint32_t code) noexcept;
// The scales' 2D load: fractals of 32 bytes from src (L1) to the MX buffer of dst's L0A/L0B.
void LoadMxScales(const View& dst, const View& src, const AscendC::LoadData2DMxParams& p,
                  aicore::SrcLoc loc);
// The same to byte `base` of MX buffer `side` (0: L0A_MX, 1: L0B_MX): the C API's form.
void LoadMxScalesAt(int side, uint64_t base, const View& src, const AscendC::LoadData2DMxParams& p,
                    aicore::SrcLoc loc);
void MmadMx(const View& c, const View& a, const View& b, const View* bias,
            const AscendC::MmadParams& p, Elem a_elem, Elem b_elem, Elem out, aicore::SrcLoc loc);

}  // namespace lngrad::cube

namespace AscendC {

template <typename T, typename U>
void LoadData(const LocalTensor<U>& dst, const LocalTensor<T>& src,
              const LocalTensor<fp8_e8m0_t>& srcMx, const LoadData2DParamsV2& loadDataParams,
              const LoadData2DMxParams& loadMxDataParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, U>, "LoadData (MX): dst and src have one type");
  lngrad::cube::LoadData2dV2(dst.View(), src.View(), loadDataParams, lngrad::cube::ElemOf<T>(),
                             loc);
  lngrad::cube::LoadMxScales(dst.View(), srcMx.View(), loadMxDataParams, loc);
}

template <typename T, typename U, typename S>
void MmadMx(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
            const MmadParams& mmadParams,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::MmadMx(dst.View(), fm.View(), filter.View(), nullptr, mmadParams,
                       lngrad::cube::ElemOf<U>(), lngrad::cube::ElemOf<S>(),
                       lngrad::cube::ElemOf<T>(), loc);
}
template <typename T, typename U, typename S, typename V>
void MmadMx(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
            const LocalTensor<V>& bias, const MmadParams& mmadParams,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, V>, "MmadMx: the bias has the type of the result");
  const lngrad::aicore::detail::TensorView b = bias.View();
  lngrad::cube::MmadMx(dst.View(), fm.View(), filter.View(), &b, mmadParams,
                       lngrad::cube::ElemOf<U>(), lngrad::cube::ElemOf<S>(),
                       lngrad::cube::ElemOf<T>(), loc);
}

}  // namespace AscendC
