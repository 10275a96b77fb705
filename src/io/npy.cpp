#include "io/npy.h"

#include <cctype>
#include <optional>

#include "byte_order.h"

namespace lngrad::io {
namespace {

Status Bad(std::string_view name, const std::string& rule) {
  return Status::InvalidArgument(std::string(name) + ": " + rule);
}

// A cursor over the header dict text; the dict is a Python literal with a fixed vocabulary
// (strings, True/False, tuples of integers), so a few hand-written rules cover it.
class DictReader {
 public:
  DictReader(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    SkipSpace();
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }

  Status Error(const std::string& what) const {
    return Bad(name_, "malformed .npy header: " + what + " at header byte " + std::to_string(pos_) +
                          " (header: " + Excerpt() + ")");
  }

  Status String(std::string* out) {
    SkipSpace();
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("expected a quoted string");
    const size_t start = ++pos_;
    while (!AtEnd() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') return Error("escape sequences are not expected");
      ++pos_;
    }
    if (AtEnd()) return Error("unterminated string");
    *out = std::string(text_.substr(start, pos_ - start));
    ++pos_;
    return Status::Ok();
  }

  Status Bool(bool* out) {
    SkipSpace();
    if (text_.substr(pos_, 4) == "True") {
      *out = true;
      pos_ += 4;
    } else if (text_.substr(pos_, 5) == "False") {
      *out = false;
      pos_ += 5;
    } else {
      return Error("expected True or False");
    }
    return Status::Ok();
  }

  // "()", "(5,)", "(2, 3)", also "(2L, 3L)" as Python 2 wrote long integers.
  Status Tuple(std::vector<int64_t>* out) {
    if (!Consume('(')) return Error("expected '(' for the shape tuple");
    out->clear();
    bool need_comma_for_one = true;
    while (true) {
      SkipSpace();
      if (Consume(')')) break;
      if (!std::isdigit(static_cast<unsigned char>(Peek()))) {
        return Error("expected a non-negative integer in the shape");
      }
      int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) {
        v = v * 10 + (text_[pos_++] - '0');
        if (v > kMaxElements) return Error("shape dimension larger than 2^40");
      }
      if (Peek() == 'L') ++pos_;
      out->push_back(v);
      SkipSpace();
      if (Consume(',')) {
        need_comma_for_one = false;
        continue;
      }
      if (Consume(')')) {
        // Python spells a 1-tuple "(5,)"; "(5)" is the integer 5, not a shape.
        if (out->size() == 1 && need_comma_for_one) return Error("shape \"(n)\" is not a tuple");
        break;
      }
      return Error("expected ',' or ')' in the shape");
    }
    return Status::Ok();
  }

 private:
  std::string Excerpt() const {
    std::string s(text_.substr(0, 120));
    for (char& c : s) {
      if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
    }
    return "\"" + s + (text_.size() > 120 ? "...\"" : "\"");
  }

  std::string_view text_;
  std::string_view name_;
  size_t pos_ = 0;
};

Status ParseDescr(const std::string& descr, std::string_view name, DType* out) {
  for (DType t : kAllDTypes) {
    if (*TraitsOf(t).npy_descr != '\0' && descr == TraitsOf(t).npy_descr) {
      *out = t;
      return Status::Ok();
    }
  }
  if (descr == "|V2" || descr == "<V2") {
    return Bad(name, "descr '" + descr +
                         "' is a 2-byte opaque type (how NumPy saves ml_dtypes.bfloat16); "
                         "lngrad reads bfloat16 from .bin files (with --dtype bf16 or a manifest)");
  }
  if (descr.size() > 1 && descr[0] == '>') {
    return Bad(name, "big-endian arrays (descr '" + descr +
                         "') are not supported; save a little-endian copy, e.g. "
                         "a.astype(a.dtype.newbyteorder('<'))");
  }
  if (descr == "=f2" || descr == "=f4" || descr == "=f8") {
    return Bad(name, "descr '" + descr + "' does not state the byte order; expected '<" +
                         descr.substr(1) + "'");
  }
  return Bad(name, "dtype '" + descr +
                       "' is not supported (supported: '<f2' float16, '<f4' float32, "
                       "'<f8' float64)");
}

}  // namespace

Status ParseNpyPreamble(std::string_view head, std::string_view name, NpyHeader* out) {
  if (head.size() < kNpyMagic.size() || head.substr(0, kNpyMagic.size()) != kNpyMagic) {
    if (head.size() < kNpyMagic.size() && kNpyMagic.substr(0, head.size()) == head) {
      return Bad(name, "truncated .npy file (" + std::to_string(head.size()) +
                           " bytes, shorter than the magic string)");
    }
    return Bad(name, "not a .npy file (does not start with \"\\x93NUMPY\")");
  }
  if (head.size() < 8) return Bad(name, "truncated .npy file (no version bytes)");
  const int major = static_cast<unsigned char>(head[6]);
  const int minor = static_cast<unsigned char>(head[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return Bad(name, ".npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                         " is not supported (1.0, 2.0, 3.0 are)");
  }
  const size_t len_bytes = major == 1 ? 2 : 4;
  if (head.size() < 8 + len_bytes) return Bad(name, "truncated .npy file (no header length)");
  const uint32_t header_len =
      detail::LoadLittle32(reinterpret_cast<const unsigned char*>(head.data()) + 8, len_bytes);
  out->major_version = major;
  out->minor_version = minor;
  out->data_offset = 8 + len_bytes + header_len;
  return Status::Ok();
}

Status ParseNpyDict(std::string_view dict, std::string_view name, NpyHeader* out) {
  for (char c : dict) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      return Bad(name, "malformed .npy header: non-ASCII characters");
    }
  }
  DictReader r(dict, name);
  if (!r.Consume('{')) return r.Error("expected '{'");
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  while (true) {
    if (r.Consume('}')) break;
    std::string key;
    LNGRAD_RETURN_IF_ERROR(r.String(&key));
    if (!r.Consume(':')) return r.Error("expected ':' after '" + key + "'");
    if (key == "descr") {
      if (descr) return r.Error("repeated key 'descr'");
      r.SkipSpace();
      if (r.Peek() == '[') {
        return Bad(name, "structured dtypes (a list in 'descr') are not supported");
      }
      std::string d;
      LNGRAD_RETURN_IF_ERROR(r.String(&d));
      descr = d;
    } else if (key == "fortran_order") {
      if (fortran) return r.Error("repeated key 'fortran_order'");
      bool f = false;
      LNGRAD_RETURN_IF_ERROR(r.Bool(&f));
      fortran = f;
    } else if (key == "shape") {
      if (shape) return r.Error("repeated key 'shape'");
      std::vector<int64_t> s;
      LNGRAD_RETURN_IF_ERROR(r.Tuple(&s));
      shape = std::move(s);
    } else {
      return r.Error("unexpected key '" + key + "'");
    }
    if (r.Consume(',')) continue;
    if (r.Consume('}')) break;
    return r.Error("expected ',' or '}'");
  }
  r.SkipSpace();
  if (!r.AtEnd()) return r.Error("unexpected text after the dict");
  if (!descr) return Bad(name, "malformed .npy header: no 'descr' key");
  if (!fortran) return Bad(name, "malformed .npy header: no 'fortran_order' key");
  if (!shape) return Bad(name, "malformed .npy header: no 'shape' key");

  LNGRAD_RETURN_IF_ERROR(ParseDescr(*descr, name, &out->dtype));
  int64_t count = 0;
  if (Status st = ElementCount(*shape, &count); !st.ok()) return Bad(name, st.message());
  if (*fortran) {
    int big_dims = 0;
    for (int64_t d : *shape) big_dims += d > 1;
    if (big_dims > 1) {
      return Bad(name, "Fortran-order arrays (fortran_order: True, shape " + ShapeText(*shape) +
                           ") are not supported; save np.ascontiguousarray(a)");
    }
  }
  out->fortran_order = *fortran;
  out->shape = std::move(*shape);
  out->element_count = count;
  return Status::Ok();
}

std::string EncodeNpyHeader(DType dtype, const std::vector<int64_t>& shape, int version) {
  std::string dict = "{'descr': '";
  dict += TraitsOf(dtype).npy_descr;
  dict += "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) dict += ", ";
    dict += std::to_string(shape[i]);
  }
  if (shape.size() == 1) dict += ',';
  dict += "), }";
  constexpr size_t kAlign = 64;
  auto padded_len = [&](size_t len_bytes) {
    const size_t unpadded = 8 + len_bytes + dict.size() + 1;  // + '\n'
    return (unpadded + kAlign - 1) / kAlign * kAlign;
  };
  if (version == 0) version = padded_len(2) - 10 <= 0xFFFF ? 1 : 2;
  const size_t len_bytes = version == 1 ? 2 : 4;
  const size_t total = padded_len(len_bytes);
  const size_t header_len = total - 8 - len_bytes;
  std::string out(kNpyMagic);
  out += static_cast<char>(version);
  out += '\0';
  for (size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((header_len >> (8 * i)) & 0xFF);
  out += dict;
  out.append(total - out.size() - 1, ' ');
  out += '\n';
  return out;
}

std::string EncodeNpy(const Tensor& t, int version) {
  std::string out = EncodeNpyHeader(t.dtype(), t.shape(), version);
  const size_t header = out.size();
  out.resize(header + t.ByteSize());
  detail::CopyLittleEndian(out.data() + header, t.RawData(), static_cast<size_t>(t.size()),
                           DTypeSize(t.dtype()));
  return out;
}

Status DecodeNpy(std::string_view bytes, std::string_view name, Tensor* out) {
  NpyHeader h;
  LNGRAD_RETURN_IF_ERROR(ParseNpyPreamble(bytes, name, &h));
  if (bytes.size() < h.data_offset) {
    return Bad(name, "truncated .npy header (file has " + std::to_string(bytes.size()) +
                         " bytes, the header needs " + std::to_string(h.data_offset) + ")");
  }
  const size_t dict_start = h.major_version == 1 ? 10 : 12;
  LNGRAD_RETURN_IF_ERROR(
      ParseNpyDict(bytes.substr(dict_start, h.data_offset - dict_start), name, &h));
  const uint64_t want = static_cast<uint64_t>(h.element_count) * DTypeSize(h.dtype);
  const uint64_t have = bytes.size() - h.data_offset;
  if (have != want) {
    return Bad(name, std::string(have < want ? "truncated data" : "trailing bytes after the data") +
                         ": shape " + ShapeText(h.shape) + " of " + DTypeName(h.dtype) + " needs " +
                         std::to_string(want) + " bytes, the file has " + std::to_string(have));
  }
  Tensor t(h.dtype, h.shape);
  detail::CopyLittleEndian(t.RawData(), bytes.data() + h.data_offset, static_cast<size_t>(t.size()),
                           DTypeSize(t.dtype()));
  *out = std::move(t);
  return Status::Ok();
}

}  // namespace lngrad::io
