// lngrad: enumerator lists of the vendor's that both host (tiling) and kernel headers spell, each
// written once. X(name) is an enumerator, A(name, earlier) an alias, V(name, value) one with a
// value; each user defines its own enum (type, scope, extra enumerators) around the list.
#pragma once

// TPosition (kernel: AscendC::TPosition; host: matmul_tiling::TPosition), GM to TSCM.
#define LNGRAD_ASCENDC_TPOSITIONS(X, A) \
  X(GM)                                 \
  X(A1)                                 \
  X(A2)                                 \
  X(B1)                                 \
  X(B2)                                 \
  X(C1)                                 \
  X(C2)                                 \
  X(CO1)                                \
  X(CO2)                                \
  X(VECIN)                              \
  X(VECOUT)                             \
  X(VECCALC)                            \
  A(LCM, VECCALC)                       \
  X(SPM)                                \
  A(SHM, SPM)                           \
  X(TSCM)

// CubeFormat (kernel: ::CubeFormat; host: matmul_tiling::CubeFormat).
#define LNGRAD_ASCENDC_CUBE_FORMATS(V, A) \
  V(ND, 0)                                \
  V(NZ, 1)                                \
  V(ZN, 2)                                \
  V(ZZ, 3)                                \
  V(NN, 4)                                \
  V(ND_ALIGN, 5)                          \
  V(SCALAR, 6)                            \
  V(VECTOR, 7)                            \
  A(ROW_MAJOR, ND)                        \
  V(COLUMN_MAJOR, 8)

// The element types ge::DataType and matmul_tiling::DataType share, DT_FLOAT to DT_BOOL.
#define LNGRAD_GE_BASIC_DATA_TYPES(V) \
  V(DT_FLOAT, 0)                      \
  V(DT_FLOAT16, 1)                    \
  V(DT_INT8, 2)                       \
  V(DT_INT32, 3)                      \
  V(DT_UINT8, 4)                      \
  V(DT_INT16, 6)                      \
  V(DT_UINT16, 7)                     \
  V(DT_UINT32, 8)                     \
  V(DT_INT64, 9)                      \
  V(DT_UINT64, 10)                    \
  V(DT_DOUBLE, 11)                    \
  V(DT_BOOL, 12)

#define LNGRAD_ENUMERATOR(name) name,
#define LNGRAD_ENUMERATOR_ALIAS(name, earlier) name = earlier,
#define LNGRAD_ENUMERATOR_VALUE(name, value) name = value,
