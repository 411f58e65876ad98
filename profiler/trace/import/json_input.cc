#include "profiler/trace/import/json_input.h"

#include <simdjson.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace rblnsim::trace::import {

namespace {

constexpr size_t kPaddingBytes = simdjson::SIMDJSON_PADDING;
constexpr size_t kReadChunkBytes = size_t{1} << 20;

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<FILE, FileCloser>;

Status ErrorAt(const std::string& path, uint64_t offset, const std::string& what) {
  return Status::Error(path + ": byte " + std::to_string(offset) + ": " + what);
}

}  // namespace

bool JsonInput::Reserve(size_t bytes) {
  if (bytes > SIZE_MAX - kPaddingBytes)
    return false;
  const size_t wanted = bytes + kPaddingBytes;
  if (wanted <= capacity_)
    return true;
  // Grow by half again so a long inflate does O(log n) reallocations.
  size_t grown = capacity_ + capacity_ / 2;
  if (grown < wanted)
    grown = wanted;
  void* p = std::realloc(bytes_.get(), grown);
  if (p == nullptr)
    return false;
  bytes_.release();
  bytes_.reset(static_cast<char*>(p));
  capacity_ = grown;
  return true;
}

void JsonInput::ShrinkToFit() {
  const size_t wanted = size_ + kPaddingBytes;
  if (capacity_ - wanted < kReadChunkBytes)
    return;
  // A failed shrink keeps the larger block, which is still valid.
  if (void* p = std::realloc(bytes_.get(), wanted)) {
    bytes_.release();
    bytes_.reset(static_cast<char*>(p));
    capacity_ = wanted;
  }
}

void JsonInput::PadEnd() {
  // simdjson only needs the padding to be readable; zeroing it keeps runs deterministic.
  std::memset(bytes_.get() + size_, 0, capacity_ - size_);
}

// Friend of JsonInput: the two file readers fill its buffer directly.
class InputReader {
 public:
  InputReader(const std::string& path, FILE* file, JsonInput* out)
      : path_(path), file_(file), out_(*out) {}

  Status ReadPlain(const unsigned char* head, size_t head_bytes) {
    struct stat st {};
    size_t hint = kReadChunkBytes;
    if (fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      hint = static_cast<size_t>(st.st_size);
    }
    // One spare chunk so the read that sees EOF does not trigger a 1.5x regrowth.
    if (!out_.Reserve(hint + kReadChunkBytes))
      return OutOfMemory();
    std::memcpy(out_.bytes_.get(), head, head_bytes);
    out_.size_ = head_bytes;
    while (true) {
      if (out_.capacity_ - kPaddingBytes - out_.size_ < kReadChunkBytes &&
          !out_.Reserve(out_.size_ + kReadChunkBytes)) {
        return OutOfMemory();
      }
      const size_t room = out_.capacity_ - kPaddingBytes - out_.size_;
      const size_t n = std::fread(out_.bytes_.get() + out_.size_, 1, room, file_);
      out_.size_ += n;
      if (n == 0)
        break;
    }
    if (std::ferror(file_))
      return ReadError();
    return Status::Ok();
  }

  // Inflates every gzip member (pigz and `cat a.gz b.gz` produce several) into one buffer.
  Status ReadGzip(const unsigned char* head, size_t head_bytes) {
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
      return OutOfMemory();
    struct Ender {
      z_stream* zs;
      ~Ender() { inflateEnd(zs); }
    } ender{&zs};

    std::vector<unsigned char> chunk(kReadChunkBytes);
    std::memcpy(chunk.data(), head, head_bytes);
    uint64_t read_total = head_bytes;  // compressed bytes read so far
    zs.next_in = chunk.data();
    zs.avail_in = static_cast<uInt>(head_bytes);
    bool eof = false;
    bool member_ended = false;
    if (!out_.Reserve(kReadChunkBytes * 4))
      return OutOfMemory();

    while (true) {
      if (zs.avail_in == 0 && !eof) {
        const size_t n = std::fread(chunk.data(), 1, chunk.size(), file_);
        if (n == 0) {
          if (std::ferror(file_))
            return ReadError();
          eof = true;
        }
        read_total += n;
        zs.next_in = chunk.data();
        zs.avail_in = static_cast<uInt>(n);
      }
      const uint64_t offset = read_total - zs.avail_in;
      if (zs.avail_in == 0 && eof) {
        if (member_ended)
          return Status::Ok();
        return ErrorAt(path_, offset, "truncated gzip stream");
      }
      if (member_ended) {
        // More bytes after a complete member: they must be another member.
        if (inflateReset(&zs) != Z_OK)
          return ErrorAt(path_, offset, "corrupt gzip data");
        member_ended = false;
      }
      if (out_.capacity_ - kPaddingBytes - out_.size_ < kReadChunkBytes &&
          !out_.Reserve(out_.size_ + kReadChunkBytes)) {
        return OutOfMemory();
      }
      const size_t room = out_.capacity_ - kPaddingBytes - out_.size_;
      zs.next_out = reinterpret_cast<Bytef*>(out_.bytes_.get() + out_.size_);
      zs.avail_out = static_cast<uInt>(room < UINT32_MAX ? room : UINT32_MAX);
      const uInt before_out = zs.avail_out;
      const int ret = inflate(&zs, Z_NO_FLUSH);
      out_.size_ += before_out - zs.avail_out;
      if (ret == Z_STREAM_END) {
        member_ended = true;
      } else if (ret == Z_BUF_ERROR) {
        continue;  // needs more input or room; both are provided on the next turn
      } else if (ret != Z_OK) {
        const std::string detail = zs.msg != nullptr ? zs.msg : "inflate error";
        return ErrorAt(path_, read_total - zs.avail_in, "corrupt gzip data (" + detail + ")");
      }
    }
  }

 private:
  Status OutOfMemory() const {
    return Status::Error(path_ + ": out of memory while reading the trace");
  }
  Status ReadError() const {
    return Status::Error(path_ + ": read error: " + std::strerror(errno));
  }

  const std::string& path_;
  FILE* file_;
  JsonInput& out_;
};

StatusOr<JsonInput> JsonInput::FromText(std::string_view text) {
  JsonInput input;
  if (!input.Reserve(text.size()))
    return Status::Error("out of memory while copying the trace");
  if (!text.empty())
    std::memcpy(input.bytes_.get(), text.data(), text.size());
  input.size_ = text.size();
  input.PadEnd();
  return input;
}

StatusOr<JsonInput> JsonInput::FromFile(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) {
    return Status::Error(path + ": cannot open: " + std::strerror(errno));
  }
  unsigned char head[2];
  const size_t head_bytes = std::fread(head, 1, sizeof(head), file.get());
  JsonInput input;
  InputReader reader(path, file.get(), &input);
  // gzip's magic (RFC 1952): 1f 8b. A JSON text never starts with these bytes.
  if (head_bytes == 2 && head[0] == 0x1f && head[1] == 0x8b) {
    input.was_gzip_ = true;
    RBLNSIM_RETURN_IF_ERROR(reader.ReadGzip(head, head_bytes));
  } else {
    RBLNSIM_RETURN_IF_ERROR(reader.ReadPlain(head, head_bytes));
  }
  if (!input.Reserve(input.size_))
    return Status::Error(path + ": out of memory");
  input.ShrinkToFit();  // inflating grows by half again; give the slack back
  input.PadEnd();
  return input;
}

}  // namespace rblnsim::trace::import
