// The script line `print(f"{len(device_events)} device events, for example:", names[:4])` from
// the user guide, where device_events are the prof.events() whose device_type is PrivateUse1.
#ifndef RBLNSIM_PROFILER_REPORT_DEVICE_EVENTS_H_
#define RBLNSIM_PROFILER_REPORT_DEVICE_EVENTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/index/trace_index.h"
#include "profiler/trace/trace.h"

namespace rblnsim::report {

// The PrivateUse1 events (the index's kPrivateUse1 column: kernels, memcpy, memset and GPU
// annotations; never a launch marker of either dialect, which is a privateuse1_runtime event, nor
// a sync/host slice on an NPU or chiplet row) in prof.events() order: by start, then longer first
// (torch sorts function events by (start, -end)), then logging order.
std::vector<const trace::Event*> DeviceEvents(const index::TraceIndex& index);

// Python's repr() of a str: single quotes unless the text has ' and no ", backslash escapes for
// \\ \n \r \t and the quote, \xNN for other control characters, \xNN/\uNNNN/\UNNNNNNNN for
// non-printable non-ASCII (format and separator characters, private use; unassigned code points
// are not tracked and print as is). Ill-formed UTF-8 prints as U+FFFD.
std::string PythonStrRepr(std::string_view text);

// "18 device events, for example: ['a', 'b', 'c', 'd']" with the first |max_names| names;
// "0 device events, for example: []" when there are none.
std::string FormatDeviceEventsLine(const std::vector<const trace::Event*>& events,
                                   size_t max_names = 4);

}  // namespace rblnsim::report

#endif  // RBLNSIM_PROFILER_REPORT_DEVICE_EVENTS_H_
