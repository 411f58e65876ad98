// One execution engine: takes ready commands from its chiplet's queue for its type, computes the
// command's duration in closed form and wait()s once. Several engines of a type share a queue.
#ifndef RBLNSIM_MODELS_REBEL100_ENGINE_H_
#define RBLNSIM_MODELS_REBEL100_ENGINE_H_

#include <systemc>

#include "models/rebel100/engine_types.h"

namespace rblnsim::rebel100 {

class Device;

class Engine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Engine);
  Engine(sc_core::sc_module_name name, Device* device, EngineType type, int chiplet, int instance);

 private:
  void Run();

  Device* device_;
  EngineType type_;
  int chiplet_;
  int instance_;
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_ENGINE_H_
