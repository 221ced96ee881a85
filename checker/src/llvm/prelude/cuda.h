// convcheck's CUDA prelude: what a kernel needs from the CUDA headers,
// without a CUDA installation (clang runs with -nocudainc -nocudalib).
//
// - Attributes and built-in variables: clang's own
//   __clang_cuda_builtin_vars.h gives threadIdx, blockIdx, blockDim,
//   gridDim (every dimension, on the NVVM special registers) and warpSize.
// - Barriers and fences on clang's NVPTX builtins, as the CUDA headers
//   define them (__syncthreads is a clang builtin already).
// - Warp-level operations (shuffles, votes, __activemask, __syncwarp,
//   __match_any_sync, the __reduce_*_sync reductions; __match_all_sync below) are external convergent functions under their CUDA
//   names: the kernel language reads a call to them as a convergent
//   operation labelled by that name, so both readings of a kernel name the
//   same operations. The shuffles are overloaded (C++ names, shown
//   demangled).
// - Integer intrinsics (__popc, __clz, __ffs, __brev, min, max, abs) on
//   clang's generic builtins, which become llvm.ctpop, llvm.ctlz, ... as
//   libdevice's definitions do once linked.
// - Atomics as LLVM atomics (atomicrmw, cmpxchg), relaxed, on the generic
//   address space, as the CUDA headers' __nvvm_atom_* builtins give.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __host__ __attribute__((host))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __CONVCHECK_WARP__ __device__ __attribute__((convergent, nothrow))
#define __CONVCHECK_INLINE__ static __device__ __forceinline__
#include "__clang_cuda_builtin_vars.h"

// Barriers and fences.
__CONVCHECK_INLINE__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__CONVCHECK_INLINE__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__CONVCHECK_INLINE__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__CONVCHECK_INLINE__ void __threadfence(void) { __nvvm_membar_gl(); }
__CONVCHECK_INLINE__ void __threadfence_block(void) { __nvvm_membar_cta(); }
__CONVCHECK_INLINE__ void __threadfence_system(void) { __nvvm_membar_sys(); }

// Warp-level operations.
extern "C" __CONVCHECK_WARP__ unsigned __ballot_sync(unsigned mask, int pred);
extern "C" __CONVCHECK_WARP__ int __any_sync(unsigned mask, int pred);
extern "C" __CONVCHECK_WARP__ int __all_sync(unsigned mask, int pred);
extern "C" __CONVCHECK_WARP__ int __uni_sync(unsigned mask, int pred);
extern "C" __CONVCHECK_WARP__ unsigned __activemask(void);
extern "C" __CONVCHECK_WARP__ void __syncwarp(unsigned mask = 0xffffffff);
extern "C" __CONVCHECK_WARP__ unsigned __match_any_sync(unsigned mask, int value);
// __match_all_sync writes its predicate through a pointer: an inline
// function on clang's NVVM builtin, which becomes
// llvm.nvvm.match.all.sync.i32p / .i64p (a { i32, i1 } result).
#define __CONVCHECK_MATCH_ALL__(T, W, U)                                            \
  __CONVCHECK_INLINE__ unsigned __match_all_sync(unsigned mask, T value, int *pred) { \
    return __nvvm_match_all_sync_##W##p(mask, __builtin_bit_cast(U, value), pred);     \
  }
__CONVCHECK_MATCH_ALL__(int, i32, int)
__CONVCHECK_MATCH_ALL__(unsigned, i32, int)
__CONVCHECK_MATCH_ALL__(float, i32, int)
__CONVCHECK_MATCH_ALL__(long, i64, long long)
__CONVCHECK_MATCH_ALL__(unsigned long, i64, long long)
__CONVCHECK_MATCH_ALL__(long long, i64, long long)
__CONVCHECK_MATCH_ALL__(unsigned long long, i64, long long)
__CONVCHECK_MATCH_ALL__(double, i64, long long)
#undef __CONVCHECK_MATCH_ALL__
#define __CONVCHECK_SHUFFLES__(T)                                                    \
  __CONVCHECK_WARP__ T __shfl_sync(unsigned mask, T var, int lane, int width = 32);      \
  __CONVCHECK_WARP__ T __shfl_up_sync(unsigned mask, T var, unsigned d, int width = 32); \
  __CONVCHECK_WARP__ T __shfl_down_sync(unsigned mask, T var, unsigned d, int width = 32); \
  __CONVCHECK_WARP__ T __shfl_xor_sync(unsigned mask, T var, int m, int width = 32);
__CONVCHECK_SHUFFLES__(int)
__CONVCHECK_SHUFFLES__(unsigned)
__CONVCHECK_SHUFFLES__(long long)
__CONVCHECK_SHUFFLES__(unsigned long long)
__CONVCHECK_SHUFFLES__(float)
__CONVCHECK_SHUFFLES__(double)
#undef __CONVCHECK_SHUFFLES__
// Warp reductions (redux.sync, sm_80): add, min and max on int and
// unsigned, and, or and xor on unsigned; overloaded as in the CUDA headers.
#define __CONVCHECK_REDUCE__(NAME, T) __CONVCHECK_WARP__ T NAME(unsigned mask, T value);
__CONVCHECK_REDUCE__(__reduce_add_sync, int)
__CONVCHECK_REDUCE__(__reduce_add_sync, unsigned)
__CONVCHECK_REDUCE__(__reduce_min_sync, int)
__CONVCHECK_REDUCE__(__reduce_min_sync, unsigned)
__CONVCHECK_REDUCE__(__reduce_max_sync, int)
__CONVCHECK_REDUCE__(__reduce_max_sync, unsigned)
__CONVCHECK_REDUCE__(__reduce_and_sync, unsigned)
__CONVCHECK_REDUCE__(__reduce_or_sync, unsigned)
__CONVCHECK_REDUCE__(__reduce_xor_sync, unsigned)
#undef __CONVCHECK_REDUCE__

// Integer intrinsics.
__CONVCHECK_INLINE__ int __popc(unsigned x) { return __builtin_popcount(x); }
__CONVCHECK_INLINE__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__CONVCHECK_INLINE__ int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__CONVCHECK_INLINE__ int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
__CONVCHECK_INLINE__ int __ffs(int x) { return __builtin_ffs(x); }
__CONVCHECK_INLINE__ int __ffsll(long long x) { return __builtin_ffsll(x); }
__CONVCHECK_INLINE__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__CONVCHECK_INLINE__ int min(int a, int b) { return a < b ? a : b; }
__CONVCHECK_INLINE__ unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__CONVCHECK_INLINE__ int max(int a, int b) { return a > b ? a : b; }
__CONVCHECK_INLINE__ unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
__CONVCHECK_INLINE__ float fminf(float a, float b) { return __builtin_fminf(a, b); }
__CONVCHECK_INLINE__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__CONVCHECK_INLINE__ int abs(int a) { return __builtin_abs(a); }

// Atomics (relaxed, as CUDA's are).
#define __CONVCHECK_ATOMIC__(NAME, BUILTIN, T)                                       \
  __CONVCHECK_INLINE__ T NAME(T *p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }
#define __CONVCHECK_ATOMICS__(T)                               \
  __CONVCHECK_ATOMIC__(atomicAdd, __atomic_fetch_add, T)       \
  __CONVCHECK_ATOMIC__(atomicSub, __atomic_fetch_sub, T)       \
  __CONVCHECK_ATOMIC__(atomicMin, __atomic_fetch_min, T)       \
  __CONVCHECK_ATOMIC__(atomicMax, __atomic_fetch_max, T)       \
  __CONVCHECK_ATOMIC__(atomicAnd, __atomic_fetch_and, T)       \
  __CONVCHECK_ATOMIC__(atomicOr, __atomic_fetch_or, T)         \
  __CONVCHECK_ATOMIC__(atomicXor, __atomic_fetch_xor, T)       \
  __CONVCHECK_ATOMIC__(atomicExch, __atomic_exchange_n, T)     \
  __CONVCHECK_INLINE__ T atomicCAS(T *p, T expected, T desired) { \
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
    return expected;                                            \
  }
__CONVCHECK_ATOMICS__(int)
__CONVCHECK_ATOMICS__(unsigned)
__CONVCHECK_ATOMICS__(unsigned long long)
#undef __CONVCHECK_ATOMICS__
__CONVCHECK_ATOMIC__(atomicAdd, __atomic_fetch_add, float)
__CONVCHECK_ATOMIC__(atomicAdd, __atomic_fetch_add, double)
#undef __CONVCHECK_ATOMIC__
