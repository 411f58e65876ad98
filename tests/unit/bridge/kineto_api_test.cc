#include "profiler/bridge/kineto_api.h"

#include <gtest/gtest.h>

#include <string>

namespace rblnsim::bridge {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(BridgeKinetoApiTest, MissingLibraryNamesThePathAndTheLoaderError) {
  const std::string path = "/nonexistent/librbln_kineto_missing.so";
  StatusOr<KinetoApi> api = KinetoApi::Load(path);
  ASSERT_FALSE(api.ok());
  EXPECT_TRUE(Contains(api.status().message(), path)) << api.status().message();
  EXPECT_TRUE(Contains(api.status().message(), "No such file")) << api.status().message();
}

TEST(BridgeKinetoApiTest, EmptyPathIsRejected) {
  EXPECT_FALSE(KinetoApi::Load("").ok());
}

TEST(BridgeKinetoApiTest, MissingSymbolIsNamed) {
  StatusOr<KinetoApi> api = KinetoApi::Load(RBLNSIM_FAKE_PRODUCER_NO_END_SO);
  ASSERT_FALSE(api.ok());
  EXPECT_TRUE(Contains(api.status().message(), "rbln_kineto_end_session_and_export"))
      << api.status().message();
  EXPECT_TRUE(Contains(api.status().message(), RBLNSIM_FAKE_PRODUCER_NO_END_SO));
}

TEST(BridgeKinetoApiTest, LoadsAProducerAndItsStatsExtension) {
  StatusOr<KinetoApi> api = KinetoApi::Load(RBLNSIM_FAKE_PRODUCER_SO);
  ASSERT_TRUE(api.ok()) << api.status().message();
  ASSERT_NE(api->last_session_stats, nullptr);
  int32_t active = 0;
  EXPECT_EQ(api->is_active(&active), RBLN_KINETO_OK);
  EXPECT_EQ(active, 1);
  EXPECT_EQ(api->begin_session(), RBLN_KINETO_OK);
  RblnsimKinetoStats stats = {};
  EXPECT_EQ(api->last_session_stats(&stats), RBLN_KINETO_OK);
  EXPECT_EQ(stats.records_captured, 7u);
}

RBLNRetCode IsActive(int32_t*) {
  return RBLN_KINETO_OK;
}
RBLNRetCode Begin() {
  return RBLN_KINETO_OK;
}
RBLNRetCode End(RblnKinetoExportSink, void*, int32_t*) {
  return RBLN_KINETO_OK;
}

TEST(BridgeKinetoApiTest, FromFunctionsNeedsTheThreeRequiredEntryPoints) {
  EXPECT_TRUE(KinetoApi::FromFunctions(&IsActive, &Begin, &End).ok());
  EXPECT_FALSE(KinetoApi::FromFunctions(nullptr, &Begin, &End).ok());
  EXPECT_FALSE(KinetoApi::FromFunctions(&IsActive, nullptr, &End).ok());
  StatusOr<KinetoApi> api = KinetoApi::FromFunctions(&IsActive, &Begin, nullptr);
  ASSERT_FALSE(api.ok());
  EXPECT_TRUE(Contains(api.status().message(), "end_session_and_export"));
}

TEST(BridgeKinetoApiTest, RetCodeNamesAreReadable) {
  EXPECT_EQ(RetCodeName(RBLN_KINETO_ERR_NOT_ACTIVE), "RBLN_KINETO_ERR_NOT_ACTIVE (2)");
  EXPECT_EQ(RetCodeName(42), "code 42");
}

}  // namespace
}  // namespace rblnsim::bridge
