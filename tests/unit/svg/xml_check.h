// A strict XML 1.0 well-formedness checker for the SVG the report code writes: one root element,
// matched tags, quoted and unique attributes, only the predefined and numeric entities, no raw
// '<' or '&' in text, no forbidden control characters. Not a general parser (no DTDs, CDATA or
// processing instructions beyond the XML declaration), which the SVG writer never emits; libxml2
// and expat are not build dependencies, and the e2e tests parse the same files with Python's.
#ifndef RBLNSIM_TESTS_UNIT_SVG_XML_CHECK_H_
#define RBLNSIM_TESTS_UNIT_SVG_XML_CHECK_H_

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rblnsim::test {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // raw (escaped) values
};

class XmlChecker {
 public:
  // Empty when |text| is well-formed; otherwise the first problem and its byte offset.
  std::string Check(std::string_view text) {
    text_ = text;
    pos_ = 0;
    elements_.clear();
    if (text_.substr(0, 5) == "<?xml") {
      pos_ = text_.find("?>");
      if (pos_ == std::string_view::npos)
        return Fail("unterminated XML declaration");
      pos_ += 2;
    }
    std::vector<std::string> open;
    bool seen_root = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c != '<') {
        if (open.empty() && !std::isspace(static_cast<unsigned char>(c)))
          return Fail("text outside the root element");
        if (std::string error = CharData(); !error.empty())
          return error;
        continue;
      }
      if (text_.substr(pos_, 4) == "<!--") {
        const size_t end = text_.find("-->", pos_ + 4);
        if (end == std::string_view::npos)
          return Fail("unterminated comment");
        pos_ = end + 3;
        continue;
      }
      if (text_.substr(pos_, 2) == "</") {
        pos_ += 2;
        const std::string name = Name();
        SkipSpace();
        if (name.empty() || pos_ >= text_.size() || text_[pos_] != '>')
          return Fail("malformed end tag");
        if (open.empty() || open.back() != name)
          return Fail("end tag </" + name + "> does not match");
        open.pop_back();
        ++pos_;
        continue;
      }
      if (open.empty() && seen_root)
        return Fail("a second root element");
      seen_root = true;
      ++pos_;
      XmlElement element;
      element.name = Name();
      if (element.name.empty())
        return Fail("malformed start tag");
      std::set<std::string> names;
      while (true) {
        SkipSpace();
        if (pos_ >= text_.size())
          return Fail("unterminated start tag");
        if (text_.substr(pos_, 2) == "/>") {
          pos_ += 2;
          break;
        }
        if (text_[pos_] == '>') {
          ++pos_;
          open.push_back(element.name);
          break;
        }
        std::string attribute = Name();
        SkipSpace();
        if (attribute.empty() || pos_ >= text_.size() || text_[pos_] != '=')
          return Fail("malformed attribute");
        ++pos_;
        SkipSpace();
        if (pos_ >= text_.size() || text_[pos_] != '"')
          return Fail("attribute value not in double quotes");
        const size_t begin = ++pos_;
        if (std::string error = CharData('"'); !error.empty())
          return error;
        if (pos_ >= text_.size())
          return Fail("unterminated attribute value");
        if (!names.insert(attribute).second)
          return Fail("duplicate attribute " + attribute);
        element.attributes.emplace_back(attribute, std::string(text_.substr(begin, pos_ - begin)));
        ++pos_;
      }
      elements_.push_back(std::move(element));
    }
    if (!seen_root)
      return Fail("no root element");
    if (!open.empty())
      return Fail("element <" + open.back() + "> is not closed");
    return "";
  }

  const std::vector<XmlElement>& elements() const { return elements_; }

 private:
  std::string Fail(const std::string& message) const {
    return message + " at byte " + std::to_string(pos_);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  std::string Name() {
    const size_t begin = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-' ||
            text_[pos_] == '_' || text_[pos_] == ':' || text_[pos_] == '.')) {
      ++pos_;
    }
    return std::string(text_.substr(begin, pos_ - begin));
  }

  // Text up to the next '<' (or |quote|), checking entities and characters.
  std::string CharData(char quote = '<') {
    while (pos_ < text_.size() && text_[pos_] != quote) {
      const unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '<')
        return Fail("raw '<' in an attribute value");
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        return Fail("control character");
      if (c == '&') {
        const size_t end = text_.find(';', pos_);
        if (end == std::string_view::npos || end - pos_ > 10)
          return Fail("unterminated entity");
        const std::string_view entity = text_.substr(pos_ + 1, end - pos_ - 1);
        static const std::set<std::string_view> kPredefined = {"amp", "lt", "gt", "quot", "apos"};
        if (!kPredefined.count(entity) && !(entity.size() > 1 && entity[0] == '#'))
          return Fail("unknown entity &" + std::string(entity) + ";");
        pos_ = end;
      }
      ++pos_;
    }
    return "";
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<XmlElement> elements_;
};

}  // namespace rblnsim::test

#endif  // RBLNSIM_TESTS_UNIT_SVG_XML_CHECK_H_
