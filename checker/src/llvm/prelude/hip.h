// convcheck's HIP prelude: what a kernel needs from the HIP headers,
// without ROCm (clang runs with -nogpuinc -nogpulib).
//
// - Attributes, and the built-in variables threadIdx, blockIdx, blockDim
//   and gridDim in every dimension, as HIP's own headers define them:
//   __builtin_amdgcn_workitem_id_* and __builtin_amdgcn_workgroup_id_* for
//   the indices, the device library's __ockl_get_local_size and
//   __ockl_get_num_groups (left external: -nogpulib links no library) for
//   the sizes; warpSize is the wave size of the target (64 on gfx900).
// - __syncthreads as HIP defines it: a workgroup release fence, the
//   s_barrier intrinsic, a workgroup acquire fence.
// - Wave-level operations (__ballot, __any, __all, the shuffles, their
//   CUDA-style _sync forms, __activemask, __syncwarp) are external
//   convergent functions under their HIP names, as in the CUDA prelude.
// - Integer intrinsics and atomics as in the CUDA prelude.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __host__ __attribute__((host))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((amdgpu_flat_work_group_size(1, __VA_ARGS__)))
#define __CONVCHECK_WARP__ __device__ __attribute__((convergent, nothrow))
#define __CONVCHECK_INLINE__ static __device__ __forceinline__

extern "C" __device__ __attribute__((const)) unsigned long __ockl_get_local_size(unsigned dim);
extern "C" __device__ __attribute__((const)) unsigned long __ockl_get_num_groups(unsigned dim);

#define __CONVCHECK_DIM__(NAME, GX, GY, GZ)                                     \
  struct __convcheck_##NAME##_t {                                               \
    __declspec(property(get = __get_x)) unsigned x;                             \
    __declspec(property(get = __get_y)) unsigned y;                             \
    __declspec(property(get = __get_z)) unsigned z;                             \
    static __device__ __forceinline__ unsigned __get_x(void) { return GX; }     \
    static __device__ __forceinline__ unsigned __get_y(void) { return GY; }     \
    static __device__ __forceinline__ unsigned __get_z(void) { return GZ; }     \
  };                                                                            \
  extern const __device__ __attribute__((weak)) __convcheck_##NAME##_t NAME;
__CONVCHECK_DIM__(threadIdx, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
                  __builtin_amdgcn_workitem_id_z())
__CONVCHECK_DIM__(blockIdx, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
                  __builtin_amdgcn_workgroup_id_z())
__CONVCHECK_DIM__(blockDim, __ockl_get_local_size(0), __ockl_get_local_size(1),
                  __ockl_get_local_size(2))
__CONVCHECK_DIM__(gridDim, __ockl_get_num_groups(0), __ockl_get_num_groups(1),
                  __ockl_get_num_groups(2))
#undef __CONVCHECK_DIM__
// clang-19 defines __AMDGCN_WAVEFRONT_SIZE; later clangs dropped it
// (clang-22 has only the builtin, which it folds for a fixed wave size).
#ifdef __AMDGCN_WAVEFRONT_SIZE
#define warpSize __AMDGCN_WAVEFRONT_SIZE
#else
#define warpSize __builtin_amdgcn_wavefrontsize()
#endif

// Barriers and fences.
__CONVCHECK_INLINE__ void __syncthreads(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
__CONVCHECK_INLINE__ void __threadfence(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
__CONVCHECK_INLINE__ void __threadfence_block(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }

// Wave-level operations.
extern "C" __CONVCHECK_WARP__ unsigned long long __ballot(int pred);
extern "C" __CONVCHECK_WARP__ int __any(int pred);
extern "C" __CONVCHECK_WARP__ int __all(int pred);
extern "C" __CONVCHECK_WARP__ unsigned long long __activemask(void);
extern "C" __CONVCHECK_WARP__ unsigned __lane_id(void);
extern "C" __CONVCHECK_WARP__ unsigned long long __ballot_sync(unsigned long long mask, int pred);
extern "C" __CONVCHECK_WARP__ int __any_sync(unsigned long long mask, int pred);
extern "C" __CONVCHECK_WARP__ int __all_sync(unsigned long long mask, int pred);
extern "C" __CONVCHECK_WARP__ void __syncwarp(unsigned long long mask = ~0ull);
#define __CONVCHECK_SHUFFLES__(T)                                                              \
  __CONVCHECK_WARP__ T __shfl(T var, int lane, int width = warpSize);                          \
  __CONVCHECK_WARP__ T __shfl_up(T var, unsigned d, int width = warpSize);                     \
  __CONVCHECK_WARP__ T __shfl_down(T var, unsigned d, int width = warpSize);                   \
  __CONVCHECK_WARP__ T __shfl_xor(T var, int m, int width = warpSize);                         \
  __CONVCHECK_WARP__ T __shfl_sync(unsigned long long mask, T var, int lane, int width = warpSize); \
  __CONVCHECK_WARP__ T __shfl_up_sync(unsigned long long mask, T var, unsigned d, int width = warpSize); \
  __CONVCHECK_WARP__ T __shfl_down_sync(unsigned long long mask, T var, unsigned d, int width = warpSize); \
  __CONVCHECK_WARP__ T __shfl_xor_sync(unsigned long long mask, T var, int m, int width = warpSize);
__CONVCHECK_SHUFFLES__(int)
__CONVCHECK_SHUFFLES__(unsigned)
__CONVCHECK_SHUFFLES__(long long)
__CONVCHECK_SHUFFLES__(unsigned long long)
__CONVCHECK_SHUFFLES__(float)
__CONVCHECK_SHUFFLES__(double)
#undef __CONVCHECK_SHUFFLES__
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
