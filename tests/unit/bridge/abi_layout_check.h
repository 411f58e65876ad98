/* The C side of the layout test: the sizes and offsets the C compiler gives the ABI structs,
 * so the C++ test can compare them with its own view of the same header. */
#ifndef RBLNSIM_TESTS_UNIT_BRIDGE_ABI_LAYOUT_CHECK_H_
#define RBLNSIM_TESTS_UNIT_BRIDGE_ABI_LAYOUT_CHECK_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct RblnsimAbiLayoutEntry {
  const char* what; /* "Type" for the whole struct, "Type.field" for a field */
  size_t offset;    /* 0 for the whole struct */
  size_t size;
} RblnsimAbiLayoutEntry;

const RblnsimAbiLayoutEntry* RblnsimAbiLayoutFromC(size_t* count);

#ifdef __cplusplus
}
#endif

#endif /* RBLNSIM_TESTS_UNIT_BRIDGE_ABI_LAYOUT_CHECK_H_ */
