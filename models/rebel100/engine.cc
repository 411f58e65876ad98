#include "models/rebel100/engine.h"

#include <algorithm>

#include "models/rebel100/command_timing.h"
#include "models/rebel100/device.h"
#include "models/rebel100/sim_time.h"

namespace rblnsim::rebel100 {

using sc_core::sc_time;
using sc_core::SC_NS;

Engine::Engine(sc_core::sc_module_name name, Device* device, EngineType type, int chiplet, int instance)
    : sc_module(name), device_(device), type_(type), chiplet_(chiplet), instance_(instance) {
  SC_THREAD(Run);
}

void Engine::Run() {
  EngineQueue& queue = device_->Queue(chiplet_, type_);
  const scenario::DeviceConfig& config = device_->config();
  while (true) {
    while (queue.items.empty()) wait(queue.pushed);
    const ReadyCommand ref = queue.items.front();
    queue.items.pop_front();
    // The command starts when the dispatcher has handed it over; its duration is known in closed
    // form from that instant (HBM is booked ahead), so one wait covers both.
    const double now_ns = SimNowNs();
    const double start_ns = std::max(now_ns, ref.available_ns);
    if (ref.run->failed) {
      if (start_ns > now_ns) wait(sc_time(start_ns - now_ns, SC_NS));
      device_->CommandFinished(ref, start_ns, start_ns, /*timed_out=*/false);
      continue;
    }
    const compiler::Command& command = ref.run->program->commands[ref.index];
    double duration_ns = device_->IsHangCommand(*ref.run, ref.index)
                             ? config.command_timeout_ns * 2
                             : CommandDurationNs(command, config, start_ns, device_->hbm());
    const bool timed_out = duration_ns > config.command_timeout_ns;
    duration_ns = std::min(duration_ns, config.command_timeout_ns);
    wait(sc_time(start_ns + duration_ns - now_ns, SC_NS));
    const double end_ns = SimNowNs();
    device_->AddBusy(chiplet_, type_, end_ns - start_ns);
    if (!timed_out && ref.run->record) {
      DeviceRecord record;
      record.launch_id = ref.run->launch_id;
      record.program = ref.run->program;
      record.command_index = ref.index;
      record.instance = ref.run->instance;
      record.sequence = ref.run->sequence;
      record.chiplet = static_cast<int16_t>(chiplet_);
      record.engine = type_;
      record.engine_instance = static_cast<int16_t>(instance_);
      device_->profiler().Record(record, start_ns, end_ns);
    }
    device_->CommandFinished(ref, start_ns, end_ns, timed_out);
  }
}

}  // namespace rblnsim::rebel100
