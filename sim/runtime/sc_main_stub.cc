// libsystemc.so (Debian) defines main() and references sc_main, and it is linked BIND_NOW: every
// process that loads it must provide an sc_main, or loading fails with "undefined symbol:
// sc_main". There is no static SystemC to link privately, so the producer libraries export this
// one symbol as their only documented extension; the rblnsim CLI gets it from here too (it is
// pulled in by -Wl,--undefined=sc_main unless the program defines its own, as tests do). The
// simulation never goes through it: sc_start is called directly.
extern "C" __attribute__((visibility("default"))) int sc_main(int /*argc*/, char** /*argv*/) {
  return 0;
}
