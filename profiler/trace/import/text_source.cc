#include "profiler/trace/import/text_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace rblnsim::trace::import {

namespace {

constexpr size_t kCompressedChunkBytes = size_t{1} << 20;

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<FILE, FileCloser>;

Status ErrorAt(uint64_t offset, const std::string& what) {
  return Status::Error("byte " + std::to_string(offset) + ": " + what);
}

Status ReadError() {
  return Status::IoError(std::string("read error: ") + std::strerror(errno));
}

class MemorySource : public TextSource {
 public:
  explicit MemorySource(std::string_view text) : text_(text), size_(text.size()) {}
  std::optional<uint64_t> size_hint() const override { return size_; }
  StatusOr<size_t> Read(char* out, size_t capacity) override {
    const size_t n = std::min(capacity, text_.size());
    if (n > 0)
      std::memcpy(out, text_.data(), n);
    text_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view text_;
  uint64_t size_;
};

// The bytes sniffed for the gzip magic are handed back before the rest of the file.
class PlainFileSource : public TextSource {
 public:
  PlainFileSource(FilePtr file, const unsigned char* head, size_t head_bytes)
      : file_(std::move(file)), head_(head, head + head_bytes) {
    struct stat st {};
    if (fstat(fileno(file_.get()), &st) == 0 && S_ISREG(st.st_mode)) {
      size_ = static_cast<uint64_t>(st.st_size);
      (void)::posix_fadvise(fileno(file_.get()), 0, 0, POSIX_FADV_SEQUENTIAL);
      if (*size_ > 0)
        mapping_ = MappedText::Map(fileno(file_.get()), *size_);
    }
  }
  std::optional<uint64_t> size_hint() const override { return size_; }
  std::unique_ptr<MappedText> TakeMapping() override { return std::move(mapping_); }

  StatusOr<size_t> Read(char* out, size_t capacity) override {
    size_t n = 0;
    if (!head_.empty() && capacity > 0) {
      n = std::min(capacity, head_.size());
      std::memcpy(out, head_.data(), n);
      head_.erase(head_.begin(), head_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    if (n < capacity) {
      const size_t got = std::fread(out + n, 1, capacity - n, file_.get());
      n += got;
      read_bytes_ += got;
      AdviseAhead();
    }
    if (n == 0 && std::ferror(file_.get()))
      return ReadError();
    return n;
  }

 private:
  // A file not in the page cache (a trace copied from the card's host, or written with
  // O_DIRECT) is read as fast as the disk goes only if the kernel is asked for the text ahead
  // of the parse: a read() that meets a page not read yet waits for the disk, parse and all.
  void AdviseAhead() {
    if (!size_)
      return;
    while (advised_to_ < *size_ && advised_to_ < read_bytes_ + kAdviseAheadBytes) {
      (void)::posix_fadvise(fileno(file_.get()), static_cast<off_t>(advised_to_),
                            static_cast<off_t>(kAdviseStepBytes), POSIX_FADV_WILLNEED);
      advised_to_ += kAdviseStepBytes;
    }
  }

  static constexpr uint64_t kAdviseAheadBytes = uint64_t{64} << 20;
  static constexpr uint64_t kAdviseStepBytes = uint64_t{8} << 20;

  FilePtr file_;
  std::vector<unsigned char> head_;
  std::optional<uint64_t> size_;
  std::unique_ptr<MappedText> mapping_;
  uint64_t read_bytes_ = 0;  // from the file, after the sniffed head
  uint64_t advised_to_ = 0;  // the kernel was asked for every byte before this
};

// Inflates every gzip member (pigz and `cat a.gz b.gz` produce several) as the text is asked
// for, so the inflated text never has to fit in memory.
class GzipSource : public TextSource {
 public:
  GzipSource(FilePtr file, const unsigned char* head, size_t head_bytes)
      : file_(std::move(file)), chunk_(kCompressedChunkBytes) {
    std::memcpy(chunk_.data(), head, head_bytes);
    read_total_ = head_bytes;
    zs_.next_in = chunk_.data();
    zs_.avail_in = static_cast<uInt>(head_bytes);
  }
  ~GzipSource() override {
    if (initialized_)
      inflateEnd(&zs_);
  }

  Status Init() {
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK)
      return Status::ResourceExhausted("out of memory while reading the trace");
    initialized_ = true;
    return Status::Ok();
  }

  bool was_gzip() const override { return true; }

  StatusOr<size_t> Read(char* out, size_t capacity) override {
    size_t produced = 0;
    while (produced == 0 && capacity > 0 && !done_) {
      if (zs_.avail_in == 0 && !eof_) {
        const size_t n = std::fread(chunk_.data(), 1, chunk_.size(), file_.get());
        if (n == 0) {
          if (std::ferror(file_.get()))
            return ReadError();
          eof_ = true;
        }
        read_total_ += n;
        zs_.next_in = chunk_.data();
        zs_.avail_in = static_cast<uInt>(n);
      }
      const uint64_t offset = read_total_ - zs_.avail_in;
      if (zs_.avail_in == 0 && eof_) {
        if (member_ended_) {
          done_ = true;
          break;
        }
        return ErrorAt(offset, "truncated gzip stream");
      }
      if (member_ended_) {
        // More bytes after a complete member: they must be another member.
        if (inflateReset(&zs_) != Z_OK)
          return ErrorAt(offset, "corrupt gzip data");
        member_ended_ = false;
      }
      const size_t room = capacity - produced;
      zs_.next_out = reinterpret_cast<Bytef*>(out + produced);
      zs_.avail_out = static_cast<uInt>(room < UINT32_MAX ? room : UINT32_MAX);
      const uInt before_out = zs_.avail_out;
      const int ret = inflate(&zs_, Z_NO_FLUSH);
      produced += before_out - zs_.avail_out;
      if (ret == Z_STREAM_END) {
        member_ended_ = true;
      } else if (ret == Z_BUF_ERROR) {
        continue;  // needs more input; it is read on the next turn
      } else if (ret != Z_OK) {
        const std::string detail = zs_.msg != nullptr ? zs_.msg : "inflate error";
        return ErrorAt(read_total_ - zs_.avail_in, "corrupt gzip data (" + detail + ")");
      }
    }
    return produced;
  }

 private:
  FilePtr file_;
  std::vector<unsigned char> chunk_;
  z_stream zs_{};
  bool initialized_ = false;
  uint64_t read_total_ = 0;  // compressed bytes read so far
  bool eof_ = false;
  bool member_ended_ = false;
  bool done_ = false;
};

}  // namespace

StatusOr<std::unique_ptr<TextSource>> OpenTextSource(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr)
    return Status::Error(path + ": cannot open: " + std::strerror(errno));
  unsigned char head[2];
  const size_t head_bytes = std::fread(head, 1, sizeof(head), file.get());
  // gzip's magic (RFC 1952): 1f 8b. A JSON text never starts with these bytes.
  if (head_bytes == 2 && head[0] == 0x1f && head[1] == 0x8b) {
    auto gzip = std::make_unique<GzipSource>(std::move(file), head, head_bytes);
    RBLNSIM_RETURN_IF_ERROR(gzip->Init().WithPrefix(path + ": "));
    return std::unique_ptr<TextSource>(std::move(gzip));
  }
  return std::unique_ptr<TextSource>(
      std::make_unique<PlainFileSource>(std::move(file), head, head_bytes));
}

std::unique_ptr<TextSource> TextSourceFromMemory(std::string_view text) {
  return std::make_unique<MemorySource>(text);
}

}  // namespace rblnsim::trace::import
