#include "sim/runtime/capture_conversion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/rebel100/device.h"

namespace rblnsim::sim {

using rebel100::EngineType;

int32_t ChipletPid(int chiplet) {
  return kDevicePidBase + chiplet;
}

// Positive tids (HTA wants stream > 0), one block of eight per engine type.
int32_t EngineTid(EngineType type, int instance) {
  return 1 + static_cast<int32_t>(type) * 8 + instance;
}

int64_t SteadyMapping::ToSteady(double sim_ns) const {
  return static_cast<int64_t>(std::llround(sim_ns)) + steady_minus_sim_ns;
}

abi::ProducerCapture ConvertSession(const Simulation& simulation,
                                    const SessionData& session,
                                    const SteadyMapping& steady,
                                    const HostThread& host) {
  const scenario::Scenario& scenario = simulation.scenario();
  abi::ProducerCapture capture;
  for (int c = 0; c < scenario.device.chiplets; ++c) {
    capture.devices.push_back(
        {ChipletPid(c), fmt::format("rbln0 chiplet {} ({})", c, scenario.device.card_name)});
    for (int t = 0; t < rebel100::kEngineTypeCount; ++t) {
      const auto type = static_cast<EngineType>(t);
      const int count = rebel100::EnginesOfType(type);
      for (int i = 0; i < count; ++i) {
        std::string name = rebel100::EngineTypeName(type);
        if (count > 1)
          name += fmt::format(" {}", i);
        capture.lanes.push_back({ChipletPid(c), EngineTid(type, i), std::move(name)});
      }
      capture.category_sets.push_back(
          {rebel100::EngineTypeName(type), fmt::format("chiplet {}", c)});
    }
  }

  // A command name is unique to its run (it carries the program instance and sequence); only
  // commands of one run can share one (the same command on every chiplet). Runs execute one after
  // the other, so their records are contiguous: names are deduplicated within the current run.
  struct RunName {
    const compiler::Program* program;
    const std::string* layer;
    int index;
    uint32_t id;
  };
  std::vector<RunName> run_names;
  int64_t current_launch = -1;
  capture.slices.reserve(session.records.size());
  // At most a name per record, and the compiler's names are about twenty characters: reserved
  // pages no name reaches are address space, and a doubling buffer would copy every name.
  capture.names.Reserve(session.records.size(), session.records.size() * 24);
  for (const rebel100::DeviceRecord& record : session.records) {
    if (record.launch_id != current_launch) {
      run_names.clear();
      current_launch = record.launch_id;
    }
    const compiler::Command& command = record.program->commands[record.command_index];
    uint32_t name_id = 0;
    auto seen = std::find_if(run_names.begin(), run_names.end(), [&](const RunName& n) {
      return n.program == record.program && *n.layer == command.layer && n.index == command.index;
    });
    if (seen != run_names.end()) {
      name_id = seen->id;
    } else {
      simulation.AppendCommandName(record, capture.names.Next());
      name_id = capture.names.End();
      run_names.push_back({record.program, &command.layer, command.index, name_id});
    }
    // Filled in place rather than copied in from the stack, where its fields were stored
    // narrower than the copy read them back (a store-forwarding stall per record).
    abi::DeviceSliceRecord& slice = capture.slices.emplace_back();
    slice.device_pid = ChipletPid(record.chiplet);
    slice.resource_tid = EngineTid(record.engine, record.engine_instance);
    slice.name_id = name_id;
    slice.category_id =
        record.chiplet * rebel100::kEngineTypeCount + static_cast<int>(record.engine);
    slice.start_cycles = record.start_cycles;
    slice.end_cycles = record.end_cycles;
    slice.launch_id = record.launch_id;
    slice.kind = static_cast<abi::SliceKind>(rebel100::EngineActivityKind(record.engine));
  }
  // Counted first so the markers are allocated once: a doubling array's copies write fresh
  // pages, the dearest part of building a capture.
  capture.markers.reserve(static_cast<size_t>(
      std::count_if(session.timeline.events.begin(), session.timeline.events.end(),
                    [](const HostEvent& e) { return e.kind == HostEventKind::kRuntimeMarker; })));
  for (const HostEvent& event : session.timeline.events) {
    if (event.kind != HostEventKind::kRuntimeMarker)
      continue;
    capture.markers.push_back({host.pid, host.tid, steady.ToSteady(event.start_ns),
                               steady.ToSteady(event.end_ns), event.launch_id});
  }
  // The runtime reads the device counter at the session's begin and end; the device clock's
  // offset and drift are linear, so two points pin the conversion down.
  for (double t : {session.begin_ns, session.end_ns}) {
    capture.sync_points.push_back({simulation.DeviceCyclesAt(t), steady.ToSteady(t)});
  }
  capture.records_dropped = static_cast<uint64_t>(session.records_dropped);
  capture.commands_timed_out = static_cast<uint64_t>(session.commands_timed_out);
  return capture;
}

}  // namespace rblnsim::sim
