// Error paths: every invalid argument gives its error (code, and a message naming the
// argument), and no buffer changes: outputs are filled with a sentinel first, and all buffers
// (inputs too, since overlap cases point outputs into them) are compared byte for byte after.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"

namespace lngrad {
namespace {

constexpr int64_t kRows = 4, kH = 8;

template <class T>
T Sentinel() {
  if constexpr (std::is_same_v<T, float>) {
    return 12345.0f;
  } else {
    return Half::FromBits(0x5A5A);
  }
}

// Storage for one call: named buffers and the pointers actually passed (which the cases
// redirect), plus shape, epsilon and options.
template <class T>
struct Call {
  std::vector<std::vector<T>> storage;
  std::vector<const T*> in;
  std::vector<T*> out;
  RowShape shape{kRows, kH};
  float epsilon = 1e-5f;
  Options options;

  std::vector<uint8_t> Snapshot() const {
    std::vector<uint8_t> bytes;
    for (const auto& v : storage) {
      const auto* p = reinterpret_cast<const uint8_t*>(v.data());
      bytes.insert(bytes.end(), p, p + v.size() * sizeof(T));
    }
    return bytes;
  }
};

// The four entry points as (inputs, outputs) with sizes; f runs the call.
template <class T>
struct Api {
  const char* name;
  std::vector<std::pair<const char*, int64_t>> inputs;  // name, element count
  std::vector<std::pair<const char*, int64_t>> outputs;
  std::function<Status(const Call<T>&)> f;
  bool has_epsilon;
  bool empty_batch_ok = false;  // rows = 0 accepted (LayerNormBackward, as in PyTorch)

  Call<T> MakeCall() const {
    Call<T> c;
    uint64_t seed = 1;
    for (const auto& [n, count] : inputs) {
      c.storage.push_back(test::RandomVector<T>(static_cast<size_t>(count), seed++, 0.5, 1.5));
    }
    for (const auto& [n, count] : outputs) {
      c.storage.emplace_back(static_cast<size_t>(count), Sentinel<T>());
    }
    for (size_t i = 0; i < inputs.size(); ++i) c.in.push_back(c.storage[i].data());
    for (size_t i = 0; i < outputs.size(); ++i) {
      c.out.push_back(c.storage[inputs.size() + i].data());
    }
    return c;
  }
  int InputIndex(const std::string& n) const {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (n == inputs[i].first) return static_cast<int>(i);
    }
    return -1;
  }
  int OutputIndex(const std::string& n) const {
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (n == outputs[i].first) return static_cast<int>(i);
    }
    return -1;
  }
};

template <class T>
std::vector<Api<T>> Apis() {
  const int64_t m = kRows * kH;
  return {
      {"LayerNormGrad",
       {{"dy", m}, {"x", m}, {"mean", kRows}, {"variance", kRows}, {"gamma", kH}},
       {{"pd_x", m}, {"res_for_gamma", m}},
       [](const Call<T>& c) {
         return LayerNormGrad(c.shape, c.in[0], c.in[1], c.in[2], c.in[3], c.in[4], c.epsilon,
                              c.out[0], c.out[1], c.options);
       },
       true},
      {"LayerNormGradBeta",
       {{"dy", m}, {"res_for_gamma", m}},
       {{"dgamma", kH}, {"dbeta", kH}},
       [](const Call<T>& c) {
         return LayerNormGradBeta(c.shape, c.in[0], c.in[1], c.out[0], c.out[1], c.options);
       },
       false},
      {"LayerNormBackward",
       {{"dy", m}, {"x", m}, {"mean", kRows}, {"variance", kRows}, {"gamma", kH}},
       {{"dx", m}, {"dgamma", kH}, {"dbeta", kH}},
       [](const Call<T>& c) {
         return LayerNormBackward(c.shape, c.in[0], c.in[1], c.in[2], c.in[3], c.in[4], c.epsilon,
                                  c.out[0], c.out[1], c.out[2], c.options);
       },
       true,
       /*empty_batch_ok=*/true},
      {"LayerNorm",
       {{"x", m}, {"gamma", kH}, {"beta", kH}},
       {{"y", m}, {"mean", kRows}, {"variance", kRows}},
       [](const Call<T>& c) {
         return LayerNorm(c.shape, c.in[0], c.in[1], c.in[2], c.epsilon, c.out[0], c.out[1],
                          c.out[2], c.options);
       },
       true},
  };
}

template <class T>
void ExpectRejected(const Api<T>& api, const std::function<void(Call<T>&)>& mutate, StatusCode code,
                    const std::string& needle, const std::string& label) {
  Call<T> c = api.MakeCall();
  mutate(c);
  const auto before = c.Snapshot();
  const Status s = api.f(c);
  EXPECT_EQ(s.code(), code) << api.name << " " << label << ": " << s.ToString();
  EXPECT_NE(s.message().find(needle), std::string::npos)
      << api.name << " " << label << ": message '" << s.message() << "' lacks '" << needle << "'";
  EXPECT_EQ(s.message().rfind(api.name, 0), 0u) << s.message();
  EXPECT_TRUE(c.Snapshot() == before) << api.name << " " << label << ": a buffer changed";
}

// A mutation that points two arguments into one fresh buffer large enough for either, so that
// neither range reaches other allocations (which would be a different, also reported, overlap).
template <class T, class Assign>
auto InOneBuffer(int64_t count_a, int64_t count_b, Assign assign) {
  return [=](Call<T>& c) {
    c.storage.emplace_back(static_cast<size_t>(std::max(count_a, count_b)), Sentinel<T>());
    assign(c, c.storage.back().data());
  };
}

// Arguments a and b (name, element count) given one address by `assign` (InOneBuffer):
// rejected as an overlap of a with b.
template <class T, class Assign>
void ExpectSameAddressRejected(const Api<T>& api, const std::pair<const char*, int64_t>& a,
                               const std::pair<const char*, int64_t>& b, Assign assign) {
  const std::string an = a.first, bn = b.first;
  ExpectRejected<T>(api, InOneBuffer<T>(a.second, b.second, assign), StatusCode::kInvalidArgument,
                    "'" + an + "' overlaps '" + bn + "'", an + " == " + bn);
}

template <class T>
void CheckAllRejections() {
  for (const Api<T>& api : Apis<T>()) {
    {  // The unmodified call is valid (so each case below fails for its own reason).
      Call<T> c = api.MakeCall();
      const Status s = api.f(c);
      EXPECT_TRUE(s.ok()) << api.name << ": " << s.ToString();
    }
    using C = Call<T>;
    const auto inv = StatusCode::kInvalidArgument;
    const auto oor = StatusCode::kOutOfRange;
    if (!api.empty_batch_ok) {
      ExpectRejected<T>(
          api, [](C& c) { c.shape.rows = 0; }, inv, "'shape.rows' must be >= 1", "rows 0");
    }
    ExpectRejected<T>(
        api, [](C& c) { c.shape.rows = -5; }, inv, "'shape.rows'", "rows -5");
    ExpectRejected<T>(
        api, [](C& c) { c.shape.h = 0; }, inv, "'shape.h' must be >= 1", "h 0");
    ExpectRejected<T>(
        api, [](C& c) { c.shape.h = std::numeric_limits<int64_t>::min(); }, inv, "'shape.h'",
        "h min");
    ExpectRejected<T>(
        api,
        [](C& c) {
          c.shape = {int64_t{1} << 40, int64_t{1} << 40};
        },
        oor, "overflows int64", "rows*h overflows int64");
    ExpectRejected<T>(
        api,
        [](C& c) {
          c.shape = {int64_t{1} << 31, int64_t{1} << 31};
        },
        oor, "exceed the addressable size", "bytes overflow");
    for (size_t i = 0; i < api.inputs.size(); ++i) {
      const std::string n = api.inputs[i].first;
      ExpectRejected<T>(
          api, [i](C& c) { c.in[i] = nullptr; }, inv, "'" + n + "' is null", "null " + n);
    }
    for (size_t i = 0; i < api.outputs.size(); ++i) {
      const std::string n = api.outputs[i].first;
      ExpectRejected<T>(
          api, [i](C& c) { c.out[i] = nullptr; }, inv, "'" + n + "' is null", "null " + n);
    }
    if (api.has_epsilon) {
      for (float eps :
           {-1e-5f, -std::numeric_limits<float>::denorm_min(),
            std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
            -std::numeric_limits<float>::infinity()}) {
        ExpectRejected<T>(
            api, [eps](C& c) { c.epsilon = eps; }, inv, "'epsilon' must be finite and >= 0",
            "eps " + std::to_string(eps));
      }
      Call<T> c = api.MakeCall();
      c.epsilon = -0.0f;
      EXPECT_TRUE(api.f(c).ok()) << api.name << ": epsilon -0 is 0, which is allowed";
    }
    ExpectRejected<T>(
        api, [](C& c) { c.options.num_threads = -1; }, inv, "'options.num_threads' must be >= 0",
        "threads -1");
    ExpectRejected<T>(
        api, [](C& c) { c.options.impl = static_cast<Impl>(42); }, inv, "'options.impl'",
        "impl 42");
    ExpectRejected<T>(
        api, [](C& c) { c.options.half_eval = static_cast<HalfEval>(7); }, inv,
        "'options.half_eval' is not a declared HalfEval value (7)", "half_eval 7");
    // Every output against every input: exact alias, then a one-element partial overlap.
    for (size_t o = 0; o < api.outputs.size(); ++o) {
      const std::string on = api.outputs[o].first;
      for (size_t i = 0; i < api.inputs.size(); ++i) {
        const std::string in = api.inputs[i].first;
        ExpectSameAddressRejected(api, api.outputs[o], api.inputs[i],
                                  [o, i](C& c, T* p) { c.in[i] = c.out[o] = p; });
        // Output placed to end one element into the input: last output element = first input
        // element.
        ExpectRejected<T>(
            api,
            [&api, o, i](C& c) {
              const auto out_count = static_cast<size_t>(api.outputs[o].second);
              const size_t in_count = c.storage[i].size();
              c.storage.emplace_back(out_count + in_count, Sentinel<T>());
              T* base = c.storage.back().data();
              c.in[i] = base + out_count - 1;
              c.out[o] = base;
            },
            inv, "'" + on + "' overlaps '" + in + "'", on + " tail-overlaps " + in);
      }
      // Outputs against earlier outputs.
      for (size_t p = 0; p < o; ++p) {
        ExpectSameAddressRejected(api, api.outputs[o], api.outputs[p],
                                  [o, p](C& c, T* b) { c.out[o] = c.out[p] = b; });
      }
    }
    // A buffer that would run past the end of the address space.
    ExpectRejected<T>(
        api,
        [](C& c) {
          c.in[0] =
              reinterpret_cast<const T*>(std::numeric_limits<uintptr_t>::max() - 7 -
                                         (std::numeric_limits<uintptr_t>::max() - 7) % alignof(T));
        },
        oor, "wraps around", "wrapping pointer");
    // A bad LNGRAD_IMPL is reported too, with nothing written.
    // (The library reads the environment once per process: the test hook reads it again.)
    setenv("LNGRAD_IMPL", "turbo", 1);
    RereadEnvironmentForTesting();
    ExpectRejected<T>(
        api, [](C&) {}, inv, "LNGRAD_IMPL", "env");
    unsetenv("LNGRAD_IMPL");
    RereadEnvironmentForTesting();
  }
}

TEST(Validation, FloatRejectsEveryBadArgument) { CheckAllRejections<float>(); }
TEST(Validation, HalfRejectsEveryBadArgument) { CheckAllRejections<Half>(); }

TEST(Validation, InputsMayAliasEachOther) {
  // Inputs are only read: dy and x may be the same tensor, mean and variance too.
  const std::vector<float> a(kRows * kH, 1.5f), stat(kRows, 1.0f), gamma(kH, 1.0f);
  std::vector<float> pd_x(a.size()), res(a.size());
  EXPECT_TRUE(LayerNormGrad({kRows, kH}, a.data(), a.data(), stat.data(), stat.data(), gamma.data(),
                            1e-5f, pd_x.data(), res.data())
                  .ok());
}

}  // namespace
}  // namespace lngrad
