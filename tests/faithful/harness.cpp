// Host side of the faithfulness harness.
#include "harness.h"

#include <algorithm>
#include <functional>
#include <string>

#include "kernel_operator.h"
#include "lngrad/product.h"

namespace faithful {

void GradFloat(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
               GM_ADDR);
void GradFloatReuse(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
                    GM_ADDR);
void GradHalf(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
              GM_ADDR);
void GradHalfReuse(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
                   GM_ADDR);
void BetaFloat(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
void BetaFloatReuse(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
void BetaHalf(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
void BetaHalfReuse(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);

namespace {

constexpr size_t Round32(size_t n) { return (n + 31) / 32 * 32; }

// GmAlloc'd copy of host bytes, padded to `capacity` (zeros), freed on destruction.
class Gm {
 public:
  explicit Gm(size_t capacity) : size_(std::max<size_t>(Round32(capacity), 32)) {
    p_ = static_cast<uint8_t*>(AscendC::GmAlloc(size_));
  }
  Gm(const std::vector<uint8_t>& bytes, size_t capacity) : Gm(std::max(capacity, bytes.size())) {
    std::memcpy(p_, bytes.data(), bytes.size());
  }
  ~Gm() { AscendC::GmFree(p_); }
  Gm(const Gm&) = delete;
  Gm& operator=(const Gm&) = delete;
  uint8_t* get() const { return p_; }
  std::vector<uint8_t> Read(size_t offset, size_t n) const {
    return {p_ + offset, p_ + offset + n};
  }

 private:
  size_t size_;
  uint8_t* p_;
};

Tensor FromBytes(bool half, std::vector<uint8_t> bytes) {
  Tensor t;
  t.half = half;
  t.bytes = std::move(bytes);
  return t;
}

std::vector<float> FloatsOf(const std::vector<uint8_t>& bytes) {
  std::vector<float> f(bytes.size() / 4);
  std::memcpy(f.data(), bytes.data(), f.size() * 4);
  return f;
}

// One block of `kernel` on `soc`.
lngrad::Status LaunchOne(const std::string& soc, const std::function<void()>& kernel) {
  lngrad::aicore::LaunchOptions opt;
  opt.soc = soc;
  return lngrad::aicore::Launch(1, kernel, opt);
}

}  // namespace

Tensor MakeTensor(bool half, const std::vector<double>& values) {
  Tensor t;
  t.half = half;
  t.bytes.resize(values.size() * (half ? 2 : 4));
  for (size_t i = 0; i < values.size(); ++i) {
    const float f = static_cast<float>(values[i]);
    if (half) {
      const uint16_t b = lngrad::FloatToHalfBits(f);
      std::memcpy(t.bytes.data() + 2 * i, &b, 2);
    } else {
      std::memcpy(t.bytes.data() + 4 * i, &f, 4);
    }
  }
  return t;
}

std::vector<double> Values(const Tensor& t) {
  std::vector<double> v(t.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = t.At(i);
  return v;
}

int64_t FirstDifference(const Tensor& a, const Tensor& b) {
  const size_t es = a.half ? 2 : 4;
  const size_t n = std::min(a.bytes.size(), b.bytes.size()) / es;
  for (size_t i = 0; i < n; ++i) {
    if (std::memcmp(a.bytes.data() + i * es, b.bytes.data() + i * es, es) != 0)
      return static_cast<int64_t>(i);
  }
  return a.bytes.size() == b.bytes.size() ? -1 : static_cast<int64_t>(n);
}

bool IsArch3510(const std::string& soc) {
  const lngrad::Product* p = lngrad::FindProduct(soc);
  return p != nullptr && lngrad::IsRegBaseArch(p->arch);
}

lngrad::Status RunGrad(const GradCase& c, GradResult* out) {
  const size_t es = c.half ? 2 : 4;
  const size_t bsh = size_t{c.rows} * c.h;
  const uint32_t stat_count = static_cast<uint32_t>(Round32(c.rows * es) / es);
  GradParams p{};
  p.tiling = c.tiling;
  p.rows = c.rows;
  p.h = c.h;
  p.statCount = stat_count;
  p.tmpBufferBytes = c.proto == Proto::kSharedTmpBuffer ? c.tmp_buffer_bytes : 0;
  p.scratchCopyBytes = c.scratch_bytes;
  p.epsilonBits = c.epsilon_bits;
  p.dataFormat =
      static_cast<uint32_t>(c.nd_format ? AscendC::DataFormat::ND : AscendC::DataFormat::NZ);
  std::vector<uint8_t> pbytes(sizeof(p));
  std::memcpy(pbytes.data(), &p, sizeof(p));

  Gm dy(c.dy.bytes, bsh * es), x(c.x.bytes, bsh * es);
  Gm var(c.variance.bytes, stat_count * es), mean(c.mean.bytes, stat_count * es),
      gamma(c.gamma.bytes, c.h * es);
  Gm pdx(bsh * es), res(bsh * es), scratch(c.scratch_bytes), params(pbytes, pbytes.size());
  const size_t off_x = Round32(bsh * es), off_var = 2 * off_x,
               off_mean = off_var + Round32(stat_count * es),
               off_gamma = off_mean + Round32(stat_count * es);
  Gm inputs(off_gamma + Round32(c.h * es));

  auto* entry =
      c.half ? (c.reuse ? &GradHalfReuse : &GradHalf) : (c.reuse ? &GradFloatReuse : &GradFloat);
  LNGRAD_RETURN_IF_ERROR(LaunchOne(c.soc, [&] {
    entry(dy.get(), x.get(), var.get(), mean.get(), gamma.get(), pdx.get(), res.get(), inputs.get(),
          scratch.get(), params.get());
  }));
  out->pd_x = FromBytes(c.half, pdx.Read(0, bsh * es));
  out->res_for_gamma = FromBytes(c.half, res.Read(0, bsh * es));
  out->dy = FromBytes(c.half, inputs.Read(0, bsh * es));
  out->x = FromBytes(c.half, inputs.Read(off_x, bsh * es));
  out->variance = FromBytes(c.half, inputs.Read(off_var, c.rows * es));
  out->mean = FromBytes(c.half, inputs.Read(off_mean, c.rows * es));
  out->gamma = FromBytes(c.half, inputs.Read(off_gamma, c.h * es));
  out->scratch = FloatsOf(scratch.Read(0, c.scratch_bytes));
  return lngrad::Status::Ok();
}

// The element type T's pointer into a tensor's bytes.
template <class T>
T* As(Tensor& v) {
  return reinterpret_cast<T*>(v.bytes.data());
}

template <class T>
bool ReplayGradAs(const GradCase& c, const lngrad_replay::GradTiling& t, T eps, float* scratch,
                  GradResult& r) {
  auto* replay = IsArch3510(c.soc) ? &lngrad_replay::ReplayLayerNormGrad3510<T>
                                   : &lngrad_replay::ReplayLayerNormGrad<T>;
  return replay(t, As<T>(r.dy), As<T>(r.x), As<T>(r.variance), As<T>(r.mean), As<T>(r.gamma), eps,
                As<T>(r.pd_x), As<T>(r.res_for_gamma), scratch, c.reuse, c.nd_format);
}

GradResult ReplayGrad(const GradCase& c) {
  GradResult r;
  r.dy = c.dy;
  r.x = c.x;
  r.variance = c.variance;
  r.mean = c.mean;
  r.gamma = c.gamma;
  const size_t bsh = size_t{c.rows} * c.h;
  r.pd_x = FromBytes(c.half, std::vector<uint8_t>(bsh * (c.half ? 2 : 4)));
  r.res_for_gamma = r.pd_x;
  // The scratch the kernel saw starts zeroed (the simulated UB is zero-filled per block); give
  // the replay room for any layout and compare the first scratch_bytes.
  std::vector<float> scratch(std::max<size_t>(c.scratch_bytes / 4, 1) + 64 * c.h + 1024, 0.0f);
  lngrad_replay::GradTiling t;
  std::memcpy(&t, &c.tiling, sizeof(t));
  bool ok;
  if (c.half) {
    const lngrad_replay::Half eps{static_cast<uint16_t>(c.epsilon_bits)};
    ok = ReplayGradAs(c, t, eps, scratch.data(), r);
  } else {
    float eps;
    std::memcpy(&eps, &c.epsilon_bits, 4);
    ok = ReplayGradAs(c, t, eps, scratch.data(), r);
  }
  if (!ok) r.pd_x.bytes.clear();  // makes every comparison fail visibly
  r.scratch.assign(scratch.begin(), scratch.begin() + c.scratch_bytes / 4);
  return r;
}

lngrad::Status RunBeta(const BetaCase& c, BetaResult* out) {
  const size_t es = c.half ? 2 : 4;
  const size_t bsh = size_t{c.rows} * c.h;
  BetaParams p{};
  p.tiling = c.tiling;
  p.rows = c.rows;
  p.h = c.h;
  p.tmpBufferBytes = c.proto == Proto::kSharedTmpBuffer ? c.tmp_buffer_bytes : 0;
  p.scratchCopyBytes = c.scratch_bytes;
  std::vector<uint8_t> pbytes(sizeof(p));
  std::memcpy(pbytes.data(), &p, sizeof(p));
  Gm res(c.res_for_gamma.bytes, bsh * es), dy(c.dy.bytes, bsh * es);
  Gm pd_gamma(c.h * es), pd_beta(c.h * es), scratch(c.scratch_bytes), params(pbytes, pbytes.size());
  Gm inputs(2 * Round32(bsh * es));
  auto* entry =
      c.half ? (c.reuse ? &BetaHalfReuse : &BetaHalf) : (c.reuse ? &BetaFloatReuse : &BetaFloat);
  LNGRAD_RETURN_IF_ERROR(LaunchOne(c.soc, [&] {
    entry(res.get(), dy.get(), pd_gamma.get(), pd_beta.get(), inputs.get(), scratch.get(),
          params.get());
  }));
  out->pd_gamma = FromBytes(c.half, pd_gamma.Read(0, c.h * es));
  out->pd_beta = FromBytes(c.half, pd_beta.Read(0, c.h * es));
  out->res_for_gamma = FromBytes(c.half, inputs.Read(0, bsh * es));
  out->dy = FromBytes(c.half, inputs.Read(Round32(bsh * es), bsh * es));
  out->scratch = FloatsOf(scratch.Read(0, c.scratch_bytes));
  return lngrad::Status::Ok();
}

template <class T>
bool ReplayBetaAs(const BetaCase& c, const lngrad_replay::GradBetaTiling& t, float* scratch,
                  BetaResult& r) {
  if (IsArch3510(c.soc)) {
    return lngrad_replay::ReplayLayerNormGradBeta3510<T>(t, As<T>(r.res_for_gamma), As<T>(r.dy),
                                                         As<T>(r.pd_gamma), As<T>(r.pd_beta));
  }
  return lngrad_replay::ReplayLayerNormGradBeta<T>(t, As<T>(r.res_for_gamma), As<T>(r.dy),
                                                   As<T>(r.pd_gamma), As<T>(r.pd_beta), scratch,
                                                   c.reuse);
}

BetaResult ReplayBeta(const BetaCase& c) {
  BetaResult r;
  r.res_for_gamma = c.res_for_gamma;
  r.dy = c.dy;
  r.pd_gamma = FromBytes(c.half, std::vector<uint8_t>(size_t{c.h} * (c.half ? 2 : 4)));
  r.pd_beta = r.pd_gamma;
  std::vector<float> scratch(
      std::max<size_t>(c.scratch_bytes / 4, 1) + 4 * size_t{c.rows} * c.h + 1024, 0.0f);
  lngrad_replay::GradBetaTiling t;
  std::memcpy(&t, &c.tiling, sizeof(t));
  const bool ok = c.half ? ReplayBetaAs<lngrad_replay::Half>(c, t, scratch.data(), r)
                         : ReplayBetaAs<float>(c, t, scratch.data(), r);
  if (!ok) r.pd_gamma.bytes.clear();
  r.scratch.assign(scratch.begin(), scratch.begin() + c.scratch_bytes / 4);
  return r;
}

}  // namespace faithful
