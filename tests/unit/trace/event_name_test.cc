#include "profiler/trace/event_name.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "profiler/trace/trace.h"

namespace rblnsim::trace {
namespace {

std::string Text(size_t size) {
  std::string text;
  for (size_t i = 0; i < size; ++i)
    text.push_back(static_cast<char>('a' + i % 26));
  return text;
}

TEST(EventNameTest, EveryLengthAroundTheInlineLimitReadsBack) {
  for (size_t size = 0; size <= EventName::kInlineCapacity + 3; ++size) {
    const std::string text = Text(size);
    const EventName name(text);
    EXPECT_EQ(name.view(), text) << size;
    EXPECT_EQ(name.size(), size);
    EXPECT_EQ(name.empty(), size == 0);
    EXPECT_EQ(name.c_str()[size], '\0') << "c_str is NUL-terminated";
    EXPECT_EQ(std::string(name.c_str()), text);
    EXPECT_EQ(name.on_heap(), size > EventName::kInlineCapacity) << size;
  }
}

TEST(EventNameTest, TheCompilersCommandNamesStayInPlace) {
  // A device slice's name per launch: no heap block each.
  EXPECT_FALSE(EventName("i1_0_W0_args_0_0").on_heap());
  EXPECT_FALSE(EventName("i12345_100_W0_mm_0_21").on_heap());
  EXPECT_TRUE(EventName("aten::_copy_from_and_resize").on_heap());
}

TEST(EventNameTest, EmbeddedNulBytesAreKept) {
  const std::string text("a\0b", 3);
  const std::string long_text = Text(30) + std::string("\0z", 2);
  EXPECT_EQ(EventName(text).view(), text);
  EXPECT_EQ(EventName(long_text).view(), long_text);
}

TEST(EventNameTest, CopiesAndMovesOwnTheirText) {
  for (size_t size : {size_t{5}, size_t{40}}) {
    const std::string text = Text(size);
    EventName original(text);
    EventName copy(original);
    EXPECT_EQ(copy, original);
    if (size > EventName::kInlineCapacity) {
      EXPECT_NE(copy.c_str(), original.c_str()) << "a copy has its own block";
    }
    EventName moved(std::move(original));
    EXPECT_EQ(moved.view(), text);
    EXPECT_TRUE(original.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
    original = "reused";
    EXPECT_EQ(original, "reused");

    EventName assigned;
    assigned = copy;
    EXPECT_EQ(assigned.view(), text);
    EventName move_assigned("x");
    move_assigned = std::move(assigned);
    EXPECT_EQ(move_assigned.view(), text);
  }
}

TEST(EventNameTest, AssignmentBetweenFormsFreesAndReplaces) {
  EventName name(Text(30));
  name = "short";
  EXPECT_FALSE(name.on_heap());
  EXPECT_EQ(name, "short");
  name = Text(50);
  EXPECT_TRUE(name.on_heap());
  EXPECT_EQ(name.view(), Text(50));
  name = std::string();
  EXPECT_TRUE(name.empty());
  EXPECT_FALSE(name.on_heap());
}

TEST(EventNameTest, SelfAndOverlappingAssignment) {
  for (size_t size : {size_t{10}, size_t{40}}) {
    EventName name(Text(size));
    const EventName& alias = name;
    name = alias;
    EXPECT_EQ(name.view(), Text(size));
    // A view of its own text, shortened: read before the old text is released.
    name = name.substr(2, 5);
    EXPECT_EQ(name.view(), Text(size).substr(2, 5));
  }
  EventName name(Text(40));
  name = name.substr(3);
  EXPECT_EQ(name.view(), Text(40).substr(3));
}

TEST(EventNameTest, ComparesHashesAndPrintsAsItsText) {
  const EventName mm("aten::mm");
  EXPECT_TRUE(mm == "aten::mm");
  EXPECT_TRUE("aten::mm" == mm);
  EXPECT_TRUE(mm == std::string("aten::mm"));
  EXPECT_TRUE(mm == std::string_view("aten::mm"));
  EXPECT_FALSE(mm == "aten::m");
  EXPECT_TRUE(mm != "aten::add");
  EXPECT_LT(EventName("a"), EventName("b"));
  EXPECT_LT(EventName(Text(30)), EventName("b"));
  EXPECT_TRUE(mm.starts_with("aten::"));
  EXPECT_EQ(mm.find("::"), 4u);

  std::unordered_set<EventName> set{EventName("x"), EventName(Text(30))};
  EXPECT_TRUE(set.contains(EventName(Text(30))));
  std::map<EventName, int> ordered{{EventName("b"), 2}, {EventName("a"), 1}};
  EXPECT_EQ(ordered.begin()->first, "a");

  std::ostringstream out;
  out << mm;
  EXPECT_EQ(out.str(), "aten::mm");
  EXPECT_EQ(fmt::format("[{}]", mm), "[aten::mm]");
}

TEST(EventNameTest, EventsInAVectorKeepTheirNamesAcrossGrowth) {
  std::vector<Event> events;
  for (int i = 0; i < 100; ++i) {
    Event& e = events.emplace_back();
    e.name = i % 2 == 0 ? fmt::format("i{}_0_W0_mm_0", i) : Text(23 + i);
  }
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(events[i].name, i % 2 == 0 ? fmt::format("i{}_0_W0_mm_0", i) : Text(23 + i));
}

}  // namespace
}  // namespace rblnsim::trace
