// LoadData 3Dv2: the img2col of an NC1HWC0 feature map in L1, written to L0A or L0B in the layout
// Mmad reads (the vendor's pseudo-code load3d.py and docs/ascendc_kernels.md, "The cube").
#include <algorithm>
#include <string>

#include "cube_internal.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The img2col matrix E: row m is an output position (ho * Wout + wo), column k a (channel block,
// kernel point, channel) triple; E(m, k) is the feature map's element under it or the pad value.
struct Img2col {
  const std::byte* l1;   // the source's memory (L1)
  uint64_t first, wrap;  // the source's element index in it; the boundary in elements (0: none)
  Fmatrix fm;
  uint32_t bits, c0, wout, rows, pad_value;
  const Load3dArgs* a;

  uint32_t At(uint32_t m, uint32_t k) const {
    const uint32_t points = a->filter_h * a->filter_w;
    const uint32_t c1 = k / (points * c0), point = k / c0 % points, c = k % c0;
    const int64_t y =
        int64_t{m / wout} * a->stride_h + int64_t{point / a->filter_w} * a->dil_h - fm.pad[2];
    const int64_t x =
        int64_t{m % wout} * a->stride_w + int64_t{point % a->filter_w} * a->dil_w - fm.pad[0];
    if (m >= rows || y < 0 || x < 0 || y >= fm.l1h || x >= fm.l1w) return pad_value;
    const uint64_t i = first + ((uint64_t{c1} * fm.l1h + y) * fm.l1w + x) * c0 + c;
    return GetBits(l1, wrap != 0 ? i % wrap : i, bits);
  }
};

Img2col Build(const View& src, const Load3dArgs& a, uint32_t bits, const char* api) {
  CubeRegisters& regs = Registers(api);
  const Fmatrix fm = a.own_fmatrix ? a.fm : regs.fmatrix[a.fmatrix_right ? 1 : 0];
  const uint32_t c0 = 256 / bits;
  const uint32_t hp = fm.l1h + fm.pad[2] + fm.pad[3], wp = fm.l1w + fm.pad[0] + fm.pad[1];
  const uint32_t kh = (a.filter_h - 1) * a.dil_h + 1, kw = (a.filter_w - 1) * a.dil_w + 1;
  if (a.stride_h == 0 || a.stride_w == 0 || hp < kh || wp < kw) {
    Raise(checks::kParams, api,
          "the kernel does not fit the padded feature map (or a stride is 0)");
  }
  const uint32_t hout = (hp - kh) / a.stride_h + 1, wout = (wp - kw) / a.stride_w + 1;
  if (a.channel % c0 != 0) {
    Raise(checks::kParams, api,
          "channelSize " + std::to_string(a.channel) + " is not a multiple of C0 = " +
              std::to_string(c0) + " (the small-channel modes are not emulated)");
  }
  // With a boundary, reads past it continue at L1's start (SetLoadDataBoundary).
  const uint64_t start = static_cast<uint64_t>(src.ptr - src.ub);
  const uint64_t bytes = uint64_t{a.channel} * fm.l1h * fm.l1w * bits / 8;
  const uint32_t boundary =
      IsRegBaseArch(aicore::CurrentBlockProduct().arch) ? 0 : regs.l1_boundary;
  if (boundary != 0 && start >= boundary) {
    Raise(checks::kParams, api,
          "src starts at L1 address " + std::to_string(start) + ", not below the boundary " +
              std::to_string(boundary) + " of SetLoadDataBoundary");
  }
  RequireRange(src, api, "src", 0, boundary != 0 ? std::min(bytes, boundary - start) : bytes);
  return {src.ub,
          start * 8 / bits,
          uint64_t{boundary} * 8 / bits,
          fm,
          bits,
          c0,
          wout,
          hout * wout,
          a.own_pad ? a.pad_value : regs.pad_value,
          &a};
}

}  // namespace

void SetFmatrix(const Fmatrix& fm, bool right) {
  Registers("SetFmatrix").fmatrix[right ? 1 : 0] = fm;
}

void SetPaddingValue(uint32_t bits) { Registers("SetLoadDataPaddingValue").pad_value = bits; }

void SetRepeatWithStride(uint32_t repeat_stride, uint32_t repeat_time, uint32_t repeat_mode,
                         uint32_t dst_stride) {
  CubeRegisters& r = Registers("SetLoadDataRepeatWithStride");
  r.repeat_stride = repeat_stride;
  r.repeat_time = repeat_time;
  r.repeat_mode = repeat_mode;
  r.dst_stride = dst_stride;
}

Load3dArgs Load3dArgsOfPro(const AscendC::LoadData3DParamsV2Pro& p) {
  Load3dArgs a{};
  a.fmatrix_right = p.fMatrixCtrl;
  a.channel = p.channelSize;
  const auto field = [](uint64_t v, uint32_t shift, uint32_t bits) {
    return static_cast<uint32_t>(v >> shift & ((uint64_t{1} << bits) - 1));
  };
  a.m_start = field(p.extConfig, 48, 16);
  a.k_start = field(p.extConfig, 32, 16);
  a.m_ext = field(p.extConfig, 16, 16);
  a.k_ext = field(p.extConfig, 0, 16);
  a.dil_h = field(p.filterConfig, 40, 8);
  a.dil_w = field(p.filterConfig, 32, 8);
  a.filter_h = field(p.filterConfig, 24, 8) + (p.filterSizeH ? 256u : 0u);
  a.filter_w = field(p.filterConfig, 16, 8) + (p.filterSizeW ? 256u : 0u);
  a.stride_h = field(p.filterConfig, 8, 8);
  a.stride_w = field(p.filterConfig, 0, 8);
  a.transpose = p.enTranspose;
  return a;
}

void SetRepeat(uint32_t repeat_stride, uint32_t repeat_time, uint32_t repeat_mode) {
  constexpr const char* kApi = "SetLoadDataRepeat";
  if (IsRegBaseArch(aicore::CurrentBlockProduct().arch)) {
    Raise(checks::kParams, kApi, "not on the Ascend 950 (SetLoadDataRepeatWithStride is its form)");
  }
  SetRepeatWithStride(repeat_stride, repeat_time, repeat_mode, 0);
}

void SetBoundary(uint32_t bytes) {
  constexpr const char* kApi = "SetLoadDataBoundary";
  if (IsRegBaseArch(aicore::CurrentBlockProduct().arch)) {
    Raise(checks::kParams, kApi, "not on the Ascend 950 (its L1 has no boundary register)");
  }
  if (bytes != 0 && bytes < 1024) {
    Raise(checks::kParams, kApi,
          "boundaryValue " + std::to_string(bytes) + " is below 1024 (0: no boundary)");
  }
  Registers(kApi).l1_boundary = bytes;
}

void LoadData3dV2(const View& dst, const View& src, const Load3dArgs& a, Elem e,
                  aicore::SrcLoc loc) {
  constexpr const char* kApi = "LoadData(L1->L0, LoadData3DParamsV2)";
  RequirePosition(dst, kApi, "dst", {P::A2, P::B2});
  RequirePosition(src, kApi, "src", {P::A1, P::B1, P::C1});
  RequireAligned(dst, kApi, "dst", kFractalBytes);
  RequireAligned(src, kApi, "src", 32);
  const uint32_t bits = ElemBits(e);
  if (bits == 0) Raise(checks::kType, kApi, std::string("no img2col of ") + ElemName(e));
  // A zero extent, channel count or feature map (its own or SetFmatrix's) is a NOP.
  const Fmatrix& fm = a.own_fmatrix ? a.fm : Registers(kApi).fmatrix[a.fmatrix_right ? 1 : 0];
  if (a.k_ext == 0 || a.m_ext == 0 || a.channel == 0 || fm.l1h * fm.l1w == 0) return;
  const Img2col img = Build(src, a, bits, kApi);
  const uint32_t c0 = img.c0;
  const bool to_b = dst.pos == P::B2;
  // L0A holds A = E (or E^T with enTranspose) as Mmad reads A; L0B holds B = E (rows: B's k).
  const bool t = !to_b && a.transpose;
  const uint32_t rows = t ? a.k_ext : a.m_ext, cols = t ? a.m_ext : a.k_ext;
  const bool nz = !to_b && IsRegBaseArch(aicore::CurrentBlockProduct().arch);
  const uint32_t rb = CeilDiv(rows, 16), cb = CeilDiv(cols, c0);
  uint32_t nb = CeilDiv(cols, 16), kstride = rb;  // K-direction fractal strides: L0B, NZ L0A
  if (!a.with_stride && !IsRegBaseArch(aicore::CurrentBlockProduct().arch) &&
      Registers(kApi).repeat_time > 1) {
    Raise(checks::kParams, kApi, "SetLoadDataRepeat's repeats (repeatTime > 1) are not emulated");
  }
  if (a.with_stride) {
    const CubeRegisters& regs = Registers(kApi);
    if (!IsRegBaseArch(aicore::CurrentBlockProduct().arch) || regs.repeat_time > 1) {
      Raise(
          checks::kParams, kApi,
          "LoadDataWithStride is the Ascend 950's; its repeats (repeatTime > 1) are not emulated");
    }
    if (regs.repeat_time == 0) return;
    (to_b ? nb : kstride) = regs.dst_stride;
  }
  const uint64_t frac_elems = kFractalBytes * 8 / bits;
  const auto index = [&](uint32_t r, uint32_t c) {
    if (to_b) return (uint64_t{r / c0} * nb + c / 16) * frac_elems + (c % 16) * c0 + r % c0;
    const uint64_t f = nz ? uint64_t{c / c0} * kstride + r / 16 : uint64_t{r / 16} * cb + c / c0;
    return f * frac_elems + (r % 16) * c0 + c % c0;
  };
  // Up to the last element written (the vendor's samples size L0 tensors by the elements).
  const uint64_t dst_bytes = ((index(rows - 1, cols - 1) + 1) * bits + 7) / 8;
  RequireRange(dst, kApi, "dst", 0, dst_bytes);
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  if (in) {
    in.Read(src.ptr, uint64_t{a.channel} * img.fm.l1h * img.fm.l1w * bits / 8);
    in.Write(dst.ptr, dst_bytes);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint32_t v =
          t ? img.At(a.m_start + c, a.k_start + r) : img.At(a.m_start + r, a.k_start + c);
      SetBits(Mutable(dst), index(r, c), bits, v);
    }
  }
}

}  // namespace lngrad::cube
