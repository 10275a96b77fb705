// lngrad_replay: RmsNorm, DeepNorm, BatchNorm, WelfordUpdate, WelfordFinalize (arch 2201/2002),
// one element operation at a time in the order of the toolkit's kernel sources (README.md,
// "Normalization beyond LayerNorm"). Built with -ffp-contract=off (lngrad_strict_fp).
#include "replay_norm_ext.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kLanes = 64;

// Exp and Ln: computed in double, rounded once to float (docs/ascendc_kernels.md §2).
float Exp1(float a) { return static_cast<float>(std::exp(static_cast<double>(a))); }
float Ln1(float a) { return static_cast<float>(std::log(static_cast<double>(a))); }

// RepeatReduceSum in counter mode over n > 1 values at src, pass after pass: each pass writes
// one tree per 64 values to part[k] (part may be src: every repeat reads before it writes); the
// last pass's single tree is returned for the caller to store where the kernel does.
float RepeatPasses(const float* src, float* part, uint32_t n) {
  const float* s = src;
  uint32_t total = n;
  while (total > kLanes) {
    const uint32_t reps = (total + kLanes - 1) / kLanes;
    for (uint32_t k = 0; k < reps; ++k) {
      part[k] = TreeSum64(s + kLanes * k, std::min(kLanes, total - kLanes * k));
    }
    total = reps;
    s = part;
  }
  return TreeSum64(s, total);
}

// The basic-block fold of one row of h = 64·m values: the blocks 1..m-1 added onto block 0
// (accFirst: acc + block, else block + acc, the operand orders of RmsNorm and DeepNorm).
void FoldBlocks(float* row, uint32_t h, bool accFirst) {
  for (uint32_t b = 1; b < h / kLanes; ++b) {
    for (uint32_t j = 0; j < kLanes; ++j) {
      row[j] = accFirst ? row[j] + row[b * kLanes + j] : row[b * kLanes + j] + row[j];
    }
  }
}

template <class T>
float F(T v) {
  return ToFloat(v);
}

// ---- RmsNorm ---------------------------------------------------------------------------------

struct RmsScratch {
  float* red;  // [mainBsLengthAlign] row sums, then rstd
  float* tmp;  // [mainBshLength] x², then x·rstd (float: then y's product source)
  float* xf;   // [mainBshLength] float x (half only; its first H values end as float gamma)
};

template <class T>
void RmsChunk(const RmsPlan& p, const T* x, const T* gamma, float eps, T* y, const RmsScratch& s,
              uint32_t rows, uint32_t n, bool basic) {
  const uint32_t h = p.hLength;
  const float* xf = nullptr;
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t i = 0; i < n; ++i) s.xf[i] = F(x[i]);
    xf = s.xf;
  } else {
    xf = x;
  }
  for (uint32_t i = 0; i < n; ++i) s.tmp[i] = xf[i] * xf[i];
  for (uint32_t r = 0; r < rows; ++r) {
    float* row = s.tmp + r * h;
    if (basic) {
      FoldBlocks(row, h, true);
      s.red[r] = TreeSum64(row, kLanes);
    } else {
      s.red[r] = RepeatPasses(row, row, p.originalHLength);
    }
  }
  for (uint32_t r = 0; r < rows; ++r) s.red[r] = s.red[r] * p.reciprocalOfHLength;
  for (uint32_t r = 0; r < rows; ++r) s.red[r] = s.red[r] + eps;
  for (uint32_t r = 0; r < rows; ++r) s.red[r] = Ln1(s.red[r]);
  for (uint32_t r = 0; r < rows; ++r) s.red[r] = s.red[r] * -0.5f;
  for (uint32_t r = 0; r < rows; ++r) s.red[r] = Exp1(s.red[r]);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < h; ++c) s.tmp[r * h + c] = xf[r * h + c] * s.red[r];
  }
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t c = 0; c < h; ++c) s.xf[c] = F(gamma[c]);
    for (uint32_t i = 0; i < rows * h; ++i) s.tmp[i] = s.tmp[i] * s.xf[i % h];
    for (uint32_t i = 0; i < n; ++i) y[i] = FloatToHalf(s.tmp[i]);
  } else {
    for (uint32_t i = 0; i < rows * h; ++i) y[i] = s.tmp[i] * gamma[i % h];
  }
}

// One chunk of the 3510 register path: the rows' sums into sums[r], then y.
template <class T>
void Rms3510Chunk(const RmsPlan& p, const T* x, const T* gamma, float eps, T* y, float* sums,
                  uint32_t rows) {
  const uint32_t h = p.hLength, oh = p.originalHLength;
  for (uint32_t r = 0; r < rows; ++r) {
    float acc[kLanes] = {};
    for (uint32_t c = 0; c < oh; ++c) {
      const float v = F(x[r * h + c]);
      acc[c % kLanes] = acc[c % kLanes] + v * v;
    }
    sums[r] = TreeSum64(acc, kLanes);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    float s = sums[r] * p.reciprocalOfHLength;
    s = s + eps;
    s = Exp1(Ln1(s) * -0.5f);
    for (uint32_t c = 0; c < oh; ++c) {
      const float v = F(x[r * h + c]) * s;
      y[r * h + c] = FromFloat<T>(v * F(gamma[c]));
    }
  }
}

// ---- DeepNorm --------------------------------------------------------------------------------

struct DnWork {
  float* a;  // float + isReuseSrc: the caller's x (its base)
  float* b;
  float* c;
};

template <class T>
void DnExec(const DnPlan& p, const T* x, const T* gx, T alpha, const DnWork& w) {
  const uint32_t n = p.bshCurLength;
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t i = 0; i < n; ++i) w.a[i] = F(x[i]);
    for (uint32_t i = 0; i < n; ++i) w.c[i] = F(gx[i]);
    for (uint32_t i = 0; i < n; ++i) w.a[i] = w.a[i] * F(alpha);
    for (uint32_t i = 0; i < n; ++i) w.a[i] = w.c[i] + w.a[i];
  } else {
    for (uint32_t i = 0; i < n; ++i) w.b[i] = x[i] * alpha;
    for (uint32_t i = 0; i < n; ++i) w.a[i] = gx[i] + w.b[i];
  }
}

// One reduction of DeepNorm: src rows (folded in place for the basic block), partial sums in
// part's rows, the result to out[r] and part[r].
void DnReduce(const DnPlan& p, float* src, float* part, float* out, bool basic) {
  const uint32_t h = p.hLength;
  for (uint32_t r = 0; r < p.bsCurLength; ++r) {
    if (basic) {
      FoldBlocks(src + r * h, h, false);
      out[r] = TreeSum64(src + r * h, kLanes);
    } else {
      out[r] = RepeatPasses(src + r * h, part + r * h, p.originalHLength);
      part[r] = out[r];
    }
  }
  if (basic) {
    for (uint32_t r = 0; r < p.bsCurLength; ++r) part[r] = out[r];
  }
}

// Mean, variance and the normalized x1 (left in c) of one chunk.
void DnStatistics(const DnPlan& p, float eps, float* mean, float* var, const DnWork& w,
                  bool basic) {
  const uint32_t n = p.bshCurLength, rows = p.bsCurLength, h = p.hLength;
  // Basic block with a scratch of 8·H·k floats and more rows than 64-blocks: the Brcb path,
  // whose broadcasts pass through Adds(+0) (the mean's: x1 − (mean + 0); only -0 changes).
  const bool brcb = basic && p.oneTmpSize % (h * 8) == 0 && rows > h / kLanes;
  for (uint32_t i = 0; i < n; ++i) w.c[i] = w.a[i] * p.lastDimValueBack;
  DnReduce(p, w.c, w.c, mean, basic);
  for (uint32_t r = 0; r < rows; ++r) {
    const float m = brcb ? mean[r] + 0.0f : mean[r];
    for (uint32_t j = 0; j < h; ++j) w.b[r * h + j] = w.a[r * h + j] + -m;
  }
  for (uint32_t i = 0; i < n; ++i) w.c[i] = w.b[i] * w.b[i];
  for (uint32_t i = 0; i < n; ++i) w.a[i] = w.c[i] * p.lastDimValueBack;
  DnReduce(p, w.a, w.c, var, basic);
  for (uint32_t r = 0; r < rows; ++r) w.a[r] = w.c[r] + eps;
  for (uint32_t r = 0; r < rows; ++r) w.c[r] = 1.0f;
  for (uint32_t r = 0; r < rows; ++r) w.a[r] = std::sqrt(w.a[r]);
  for (uint32_t r = 0; r < rows; ++r) w.a[r] = w.c[r] / w.a[r];
  // Brcb path: the product into a, then copied to c through Adds(+0).
  std::vector<float> rstd(w.a, w.a + rows);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < h; ++j) {
      const float v = w.b[r * h + j] * rstd[r];
      if (brcb) w.a[r * h + j] = v;
      w.c[r * h + j] = brcb ? v + 0.0f : v;
    }
  }
}

template <class T>
void DnOutput(const DnPlan& p, const T* gamma, const T* beta, T* y, const DnWork& w) {
  const uint32_t n = p.bshCurLength, h = p.hLength;
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t j = 0; j < h; ++j) w.a[j] = F(gamma[j]);
    for (uint32_t i = 0; i < n; ++i) w.b[i] = w.c[i] * w.a[i % h];
    for (uint32_t j = 0; j < h; ++j) w.c[j] = F(beta[j]);
    for (uint32_t i = 0; i < n; ++i) w.a[i] = w.b[i] + w.c[i % h];
    for (uint32_t i = 0; i < n; ++i) y[i] = FloatToHalf(w.a[i]);
  } else {
    for (uint32_t i = 0; i < n; ++i) w.a[i] = w.c[i] * gamma[i % h];
    for (uint32_t i = 0; i < n; ++i) y[i] = w.a[i] + beta[i % h];
  }
}

// One row's lane sums (from +0, 64 lanes, a tail chunk's other lanes adding +0) of f(x1[c]) over
// h columns, then the tree.
template <class F1>
float LaneSum3510(uint32_t h, F1&& f) {
  float acc[kLanes] = {};
  const uint32_t full = h / kLanes * kLanes;
  for (uint32_t c = 0; c < full; ++c) acc[c % kLanes] = acc[c % kLanes] + f(c);
  if (full < h) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = acc[l] + (full + l < h ? f(full + l) : 0.0f);
  }
  return TreeSum64(acc, kLanes);
}

// ---- BatchNorm -------------------------------------------------------------------------------

struct BnWork {
  std::vector<float> a, b, c;
  // The basic block's broadcast of gamma and beta (BrcFirstDim): the leading columns of each
  // row take the value as the Brcb (2201: 8) or TransDataTo5HD (2002: 16) writes it, the others
  // the Adds(+0) copies (-0 becomes +0). 0: the generic path's Duplicate, every column raw.
  uint32_t rawCols = 0;
};

// Row r's broadcast value in column j (BnWork::rawCols).
float BnBroadcast(float v, uint32_t j, const BnWork& w) {
  return w.rawCols == 0 || j < w.rawCols ? v : v + 0.0f;
}

// Mean and variance of one column chunk (float, at m and v), c left as x - mean.
void BnStatistics(const BnPlan& p, const float* in, uint32_t stride, float* m, float* v,
                  BnWork& w) {
  const uint32_t rows = p.originalBLength, sh = p.shCurLength;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) w.c[r * sh + j] = in[r * stride + j] * p.firstDimValueBack;
  }
  for (uint32_t j = 0; j < sh; ++j) m[j] = w.c[j];
  for (uint32_t r = 1; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) m[j] = m[j] + w.c[r * sh + j];
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) w.c[r * sh + j] = in[r * stride + j] - m[j];
  }
  for (uint32_t i = 0; i < rows * sh; ++i) w.b[i] = w.c[i] * w.c[i];
  for (uint32_t i = 0; i < rows * sh; ++i) w.a[i] = w.b[i] * p.firstDimValueBack;
  for (uint32_t j = 0; j < sh; ++j) v[j] = w.a[j];
  for (uint32_t r = 1; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) v[j] = v[j] + w.a[r * sh + j];
  }
}

// c·rstd, then beta_b + gamma_b·(c·rstd), each row r of the chunk stored by put(r, j, value).
template <class T, class Put>
void BnOutput(const BnPlan& p, const float* v, const T* gamma, const T* beta, float eps, BnWork& w,
              Put put) {
  const uint32_t rows = p.originalBLength, sh = p.shCurLength;
  for (uint32_t j = 0; j < sh; ++j) w.a[j] = v[j] + eps;
  for (uint32_t j = 0; j < sh; ++j) w.b[j] = Ln1(w.a[j]);
  for (uint32_t j = 0; j < sh; ++j) w.a[j] = w.b[j] * -0.5f;
  for (uint32_t j = 0; j < sh; ++j) w.b[j] = Exp1(w.a[j]);
  const std::vector<float> rstd(w.b.begin(), w.b.begin() + sh);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) w.c[r * sh + j] = w.c[r * sh + j] * rstd[j];
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) {
      w.c[r * sh + j] = BnBroadcast(F(gamma[r]), j, w) * w.c[r * sh + j];
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < sh; ++j) put(r, j, BnBroadcast(F(beta[r]), j, w) + w.c[r * sh + j]);
  }
}

template <class T>
void BnChunk(const BnPlan& p, const T* x, const T* gamma, const T* beta, float eps, T* y, T* mean,
             T* var, BnWork& w) {
  const uint32_t rows = p.originalBLength, sh = p.shCurLength, mvs = p.meanVarSize;
  const auto put = [&](uint32_t r, uint32_t j, float v) { y[r * mvs + j] = FromFloat<T>(v); };
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t j = 0; j < sh; ++j) w.a[r * sh + j] = F(x[r * mvs + j]);
    }
    std::vector<float> m(sh), v(sh);
    const std::vector<float> in(w.a.begin(), w.a.begin() + rows * sh);
    BnStatistics(p, in.data(), sh, m.data(), v.data(), w);
    for (uint32_t j = 0; j < sh; ++j) mean[j] = FloatToHalf(m[j]);
    for (uint32_t j = 0; j < sh; ++j) var[j] = FloatToHalf(v[j]);
    BnOutput(p, v.data(), gamma, beta, eps, w, put);
  } else {
    BnStatistics(p, x, mvs, mean, var, w);
    BnOutput(p, var, gamma, beta, eps, w, put);
  }
}

// ---- WelfordFinalize -------------------------------------------------------------------------

// LayerNormReduceSumImpl over one row of h values: 64-blocks added onto the first (block +
// acc), the h mod 64 tail onto the first columns, then one tree of min(h, 64) lanes.
float FoldAndTree(float* v, uint32_t h) {
  if (h > kLanes) {
    for (uint32_t b = 1; b < h / kLanes; ++b) {
      for (uint32_t j = 0; j < kLanes; ++j) v[j] = v[b * kLanes + j] + v[j];
    }
    const uint32_t tail = h % kLanes, base = h - tail;
    for (uint32_t j = 0; j < tail; ++j) v[j] = v[base + j] + v[j];
  }
  return TreeSum64(v, std::min(h, kLanes));
}

// One chunk's terms (mean: m unused; variance: m the broadcast mean).
void FinTerms(const FinPara& p, const float* im, const float* iv, const int32_t* cnt, uint32_t off,
              uint32_t len, bool variance, float m, float* t) {
  const bool noTail = p.tailCountLength == 0 || p.tailCount == 0;
  const float ratio = static_cast<float>(p.headCount) / static_cast<float>(p.tailCount);
  for (uint32_t j = 0; j < len; ++j) {
    const uint32_t i = off + j;
    const bool head = cnt == nullptr && !noTail && i < p.headCountLength;
    float k = cnt != nullptr       ? static_cast<float>(cnt[i])
              : noTail && variance ? static_cast<float>(p.rnLength)
                                   : static_cast<float>(p.tailCount);
    if (!variance) {
      if (cnt == nullptr && noTail) {
        t[j] = im[i] * p.abRec;
        continue;
      }
      float a = im[i] * k;
      a = a * p.rRec;
      t[j] = head ? a * ratio : a;
      continue;
    }
    const float d = im[i] - m;
    float q = d * d;
    q = q * k;
    if (head) q = q * ratio;
    t[j] = (iv[i] + q) * p.rRec;
  }
}

float FinSum(const FinPara& p, uint32_t computeLength, const float* im, const float* iv,
             const int32_t* cnt, bool variance, float m) {
  float slots[kLanes] = {};
  std::vector<float> t(computeLength);
  uint32_t used = 0;
  const uint32_t round = p.abLength / computeLength, tail = p.abLength % computeLength;
  for (uint32_t i = 0; i <= round; ++i) {
    const uint32_t len = i < round ? computeLength : tail;
    if (len == 0) break;
    FinTerms(p, im, iv, cnt, i * computeLength, len, variance, m, t.data());
    slots[used++] = FoldAndTree(t.data(), len);
    if (i < round && used == kLanes) {
      slots[0] = TreeSum64(slots, kLanes);
      used = 1;
    }
  }
  return TreeSum64(slots, used);
}

}  // namespace

template <class T>
void ReplayRmsNorm(const RmsPlan& p, const T* x, const T* gamma, T epsilon, T* y, float* scratch,
                   bool isBasicBlock) {
  std::vector<float> own;
  if (scratch == nullptr) {
    own.assign(p.mainBsLengthAlign + 2 * static_cast<size_t>(p.mainBshLength), 0.0f);
    scratch = own.data();
  }
  const RmsScratch s{scratch, scratch + p.mainBsLengthAlign,
                     scratch + p.mainBsLengthAlign + p.mainBshLength};
  const float eps = F(epsilon);
  for (uint32_t i = 0; i < p.loopRound; ++i) {
    const size_t off = static_cast<size_t>(i) * p.mainBshLength;
    RmsChunk(p, x + off, gamma, eps, y + off, s, p.mainBsLength, p.mainBshLength, isBasicBlock);
  }
  if (p.tailBsLength != 0) {
    RmsChunk(p, x + p.inputTailPos, gamma, eps, y + p.inputTailPos, s, p.tailBsLength,
             p.tailBshLength, isBasicBlock);
  }
}

template <class T>
void ReplayRmsNorm3510(const RmsPlan& p, const T* x, const T* gamma, T epsilon, T* y,
                       float* scratch) {
  const float eps = F(epsilon);
  for (uint32_t i = 0; i < p.loopRound; ++i) {
    const size_t off = static_cast<size_t>(i) * p.mainBshLength;
    Rms3510Chunk(p, x + off, gamma, eps, y + off, scratch, p.mainBsLength);
  }
  if (p.tailBsLength != 0) {
    Rms3510Chunk(p, x + p.inputTailPos, gamma, eps, y + p.inputTailPos, scratch, p.tailBsLength);
  }
}

template <class T>
void ReplayDeepNorm(DnPlan& p, T* x, const T* gx, const T* beta, const T* gamma, T alpha, T epsilon,
                    T* y, T* mean, T* var, bool isReuseSrc, bool isBasicBlock) {
  const size_t work = std::max<size_t>(p.inputRoundSize, p.bshCurLength);
  std::vector<float> a(work), b(work), c(work);
  DnWork w{a.data(), b.data(), c.data()};
  if constexpr (std::is_same_v<T, float>) {
    if (isReuseSrc) w.a = x;
  }
  const size_t mv = std::max(
      {p.meanVarSize, p.loopRound * p.meanVarRoundSize, p.meanVarTailPos + p.meanVarTailSize});
  std::vector<float> mStage(mv), vStage(mv);
  float* mOut = mStage.data();
  float* vOut = vStage.data();
  if constexpr (std::is_same_v<T, float>) {
    mOut = mean;
    vOut = var;
  }
  const auto chunk = [&](size_t off, size_t mvOff) {
    DnExec(p, x + off, gx + off, alpha, w);
    DnStatistics(p, F(epsilon), mOut + mvOff, vOut + mvOff, w, isBasicBlock);
    DnOutput(p, gamma, beta, y + off, w);
  };
  for (uint32_t i = 0; i < p.loopRound; ++i) {
    chunk(static_cast<size_t>(i) * p.inputRoundSize, static_cast<size_t>(i) * p.meanVarRoundSize);
  }
  if (p.inputTailSize > 0) {
    p.bshCurLength = p.inputTailSize;
    p.bsCurLength = p.meanVarTailSize;
    chunk(p.inputTailPos, p.meanVarTailPos);
  }
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t i = 0; i < p.meanVarSize; ++i) mean[i] = FloatToHalf(mStage[i]);
    for (uint32_t i = 0; i < p.meanVarSize; ++i) var[i] = FloatToHalf(vStage[i]);
  }
}

template <class T>
void ReplayDeepNorm3510(const DnPlan& p, uint32_t rows, const T* x, const T* gx, const T* beta,
                        const T* gamma, T alpha, T epsilon, T* y, T* mean, T* var) {
  const uint32_t h = p.hLength;
  const float hd = static_cast<float>(h), a = F(alpha), eps = F(epsilon);
  for (uint32_t r = 0; r < rows; ++r) {
    const size_t base = static_cast<size_t>(r) * h;
    // The register Axpy (gx += x * alpha): one fused multiply-add, the choice
    // docs/ascendc_kernels.md makes for that instruction.
    const auto x1 = [&](uint32_t c) { return std::fma(F(x[base + c]), a, F(gx[base + c])); };
    const float m = LaneSum3510(h, [&](uint32_t c) { return x1(c) / hd; });
    const float v = LaneSum3510(h, [&](uint32_t c) {
      const float d = x1(c) - m;
      return (d * d) / hd;
    });
    mean[r] = FromFloat<T>(m);
    var[r] = FromFloat<T>(v);
    const float sd = std::sqrt(v + eps);
    for (uint32_t c = 0; c < h; ++c) {
      const float o = ((x1(c) - m) / sd) * F(gamma[c]);
      y[base + c] = FromFloat<T>(o + F(beta[c]));
    }
  }
}

template <class T>
void ReplayBatchNorm(BnPlan& p, const T* x, const T* gamma, const T* beta, T epsilon, T* y, T* mean,
                     T* var, bool isBasicBlock, bool arch2002) {
  const size_t work =
      static_cast<size_t>(p.originalBLength) * std::max(p.shCurLength, p.meanVarTailSize);
  BnWork w{std::vector<float>(work), std::vector<float>(work), std::vector<float>(work)};
  if (isBasicBlock) w.rawCols = arch2002 ? 16 : 8;
  const float eps = F(epsilon);
  for (uint32_t i = 0; i < p.loopRound; ++i) {
    const size_t off = static_cast<size_t>(i) * p.shCurLength;
    BnChunk(p, x + off, gamma, beta, eps, y + off, mean + off, var + off, w);
  }
  if (p.inputTailSize > 0) {
    p.bshCurLength = p.inputTailSize;
    p.shCurLength = p.meanVarTailSize;
    p.shCurLengthBlockNum = p.shCurLength / 8;
    BnChunk(p, x + p.inputTailPos, gamma, beta, eps, y + p.inputTailPos, mean + p.meanVarTailPos,
            var + p.meanVarTailPos, w);
  }
}

template <class T>
void ReplayBatchNorm3510(const BnPlan& p, const T* x, const T* gamma, const T* beta, T epsilon,
                         T* y, T* mean, T* var, float* scratch) {
  const uint32_t f = p.meanVarSize, rows = p.originalBLength;
  const float eps = F(epsilon), k = p.firstDimValueBack;
  float* m = scratch;
  float* v = scratch + f;
  for (uint32_t j = 0; j < f; ++j) {
    float acc = 0.0f;
    for (uint32_t r = 0; r < rows; ++r) acc = acc + F(x[r * f + j]) * k;
    m[j] = acc;
    acc = 0.0f;
    for (uint32_t r = 0; r < rows; ++r) {
      const float d = F(x[r * f + j]) - m[j];
      acc = acc + d * d;
    }
    v[j] = acc * k;
    mean[j] = FromFloat<T>(m[j]);
    var[j] = FromFloat<T>(v[j]);
    const float rstd = Exp1(Ln1(v[j] + eps) * -0.5f);
    for (uint32_t r = 0; r < rows; ++r) {
      const float o = (rstd * (F(x[r * f + j]) - m[j])) * F(gamma[r]);
      y[r * f + j] = FromFloat<T>(o + F(beta[r]));
    }
  }
}

template <class T>
void ReplayWelfordUpdate(uint32_t abLength, uint32_t abComputeLength, float nRec, bool isInplace,
                         bool isReuseSource, T* x, const float* inMean, const float* inVar,
                         float* outMean, float* outVar) {
  if (isInplace && abComputeLength < abLength) {
    const uint32_t len = (abLength - abComputeLength + 7) / 8 * 8;
    for (uint32_t i = abLength - len; i < abLength; ++i) {
      outMean[i] = inMean[i];
      outVar[i] = inVar[i];
    }
  }
  for (uint32_t i = 0; i < abComputeLength; ++i) {
    const float xv = F(x[i]);
    const float d = xv - inMean[i];
    const float m = d * nRec + inMean[i];  // Muls, then Add: two roundings (strict fp)
    const float e = xv - m;
    outMean[i] = m;
    outVar[i] = d * e + inVar[i];
    if constexpr (std::is_same_v<T, float>) {
      if (isReuseSource) x[i] = d;
    }
  }
}

void ReplayWelfordFinalize(const FinPara& p, uint32_t tmpFloats, const float* inMean,
                           const float* inVar, const int32_t* counts, float* outMean,
                           float* outVar) {
  const uint32_t computeLength = (tmpFloats - 2 * kLanes) / (2 * kLanes) * kLanes;
  const float mean = FinSum(p, computeLength, inMean, inVar, counts, false, 0.0f);
  const float m = (mean + 0.0f) + 0.0f;  // Adds(tempMean, ·, 0), then Adds(tempVariance, ·, 0)
  const float variance = FinSum(p, computeLength, inMean, inVar, counts, true, m);
  outMean[0] = mean + 0.0f;
  outVar[0] = variance + 0.0f;
  for (int i = 1; i < 8; ++i) {
    outMean[i] = 0.0f;
    outVar[i] = 0.0f;
  }
}

#define LNGRAD_REPLAY_NORM_EXT(T)                                                                  \
  template void ReplayRmsNorm<T>(const RmsPlan&, const T*, const T*, T, T*, float*, bool);         \
  template void ReplayRmsNorm3510<T>(const RmsPlan&, const T*, const T*, T, T*, float*);           \
  template void ReplayDeepNorm<T>(DnPlan&, T*, const T*, const T*, const T*, T, T, T*, T*, T*,     \
                                  bool, bool);                                                     \
  template void ReplayDeepNorm3510<T>(const DnPlan&, uint32_t, const T*, const T*, const T*,       \
                                      const T*, T, T, T*, T*, T*);                                 \
  template void ReplayBatchNorm3510<T>(const BnPlan&, const T*, const T*, const T*, T, T*, T*, T*, \
                                       float*);                                                    \
  template void ReplayBatchNorm<T>(BnPlan&, const T*, const T*, const T*, T, T*, T*, T*, bool,     \
                                   bool);                                                          \
  template void ReplayWelfordUpdate<T>(uint32_t, uint32_t, float, bool, bool, T*, const float*,    \
                                       const float*, float*, float*);
LNGRAD_REPLAY_NORM_EXT(float)
LNGRAD_REPLAY_NORM_EXT(Half)
#undef LNGRAD_REPLAY_NORM_EXT

}  // namespace lngrad_replay
