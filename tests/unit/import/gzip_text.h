// Gzip-compresses text in memory for importer tests (one member, gzip header and trailer).
#ifndef RBLNSIM_TESTS_UNIT_IMPORT_GZIP_TEXT_H_
#define RBLNSIM_TESTS_UNIT_IMPORT_GZIP_TEXT_H_

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace rblnsim::testing {

inline std::string GzipText(const std::string& text, int level = 6) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, text.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_IMPORT_GZIP_TEXT_H_
