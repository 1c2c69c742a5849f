//===- DriverApi.h - The CUDA driver, loaded with dlopen --------*- C++ -*-===//
//
// libcuda.so.1 is opened on first use and its entry points resolved with
// dlsym; nothing links libcuda at build time. A missing library, a missing
// symbol or a failing cuInit (a stub library returns CUDA_ERROR_STUB_LIBRARY)
// all mean "no driver".
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_DRIVERAPI_H
#define TILE_LIB_RUNTIME_DRIVERAPI_H

#include "CudaTypes.h"
#include "Error.h"

#include "tile/Runtime/TileRuntime.h"

namespace tile::runtime {

struct DriverApi {
  cu::Result (*cuInit)(unsigned flags);
  cu::Result (*cuDriverGetVersion)(int *version);
  cu::Result (*cuGetErrorName)(cu::Result error, const char **name);
  cu::Result (*cuDeviceGet)(cu::Device *device, int ordinal);
  cu::Result (*cuDeviceGetAttribute)(int *value, int attribute,
                                     cu::Device device);
  cu::Result (*cuDevicePrimaryCtxRetain)(cu::Context *context,
                                         cu::Device device);
  cu::Result (*cuCtxGetCurrent)(cu::Context *context);
  cu::Result (*cuCtxSetCurrent)(cu::Context context);
  cu::Result (*cuCtxGetDevice)(cu::Device *device);
  TileTensorMapEncodeHook cuTensorMapEncodeTiled;
  TileTensorMapEncodeIm2colHook cuTensorMapEncodeIm2col;
  cu::Result (*cuModuleLoadDataEx)(cu::Module *module, const void *image,
                                   unsigned numOptions, int *options,
                                   void **optionValues);
  cu::Result (*cuModuleUnload)(cu::Module module);
  cu::Result (*cuModuleGetFunction)(cu::Function *function, cu::Module module,
                                    const char *name);
  cu::Result (*cuFuncSetAttribute)(cu::Function function, int attribute,
                                   int value);
  cu::Result (*cuFuncGetAttribute)(int *value, int attribute,
                                   cu::Function function);
  cu::Result (*cuLaunchKernel)(cu::Function function, unsigned gridX,
                               unsigned gridY, unsigned gridZ, unsigned blockX,
                               unsigned blockY, unsigned blockZ,
                               unsigned sharedMemBytes, cu::Stream stream,
                               void **params, void **extra);
  cu::Result (*cuLaunchKernelEx)(const cu::LaunchConfig *config,
                                 cu::Function function, void **params,
                                 void **extra);
  cu::Result (*cuStreamCreate)(cu::Stream *stream, unsigned flags);
  cu::Result (*cuStreamDestroy)(cu::Stream stream);
  cu::Result (*cuStreamSynchronize)(cu::Stream stream);
  cu::Result (*cuStreamWaitEvent)(cu::Stream stream, cu::Event event,
                                  unsigned flags);
  cu::Result (*cuEventCreate)(cu::Event *event, unsigned flags);
  cu::Result (*cuEventDestroy)(cu::Event event);
  cu::Result (*cuEventSynchronize)(cu::Event event);
  cu::Result (*cuEventRecord)(cu::Event event, cu::Stream stream);
  cu::Result (*cuMemAlloc)(cu::DevicePtr *ptr, size_t bytes);
  cu::Result (*cuMemAllocManaged)(cu::DevicePtr *ptr, size_t bytes,
                                  unsigned flags);
  cu::Result (*cuMemFree)(cu::DevicePtr ptr);
  cu::Result (*cuMemPoolCreate)(cu::MemoryPool *pool,
                                const cu::MemPoolProps *props);
  cu::Result (*cuMemPoolDestroy)(cu::MemoryPool pool);
  cu::Result (*cuMemPoolSetAttribute)(cu::MemoryPool pool, int attribute,
                                      void *value);
  cu::Result (*cuMemAllocFromPoolAsync)(cu::DevicePtr *ptr, size_t bytes,
                                        cu::MemoryPool pool, cu::Stream stream);
  cu::Result (*cuMemFreeAsync)(cu::DevicePtr ptr, cu::Stream stream);
  cu::Result (*cuMemcpyAsync)(cu::DevicePtr dst, cu::DevicePtr src,
                              size_t bytes, cu::Stream stream);
  cu::Result (*cuMemsetD32Async)(cu::DevicePtr dst, unsigned value,
                                 size_t count, cu::Stream stream);
  cu::Result (*cuMemsetD16Async)(cu::DevicePtr dst, unsigned short value,
                                 size_t count, cu::Stream stream);
  /// Sets the calling thread's CUstreamCaptureMode to *mode and returns the
  /// previous one in *mode.
  cu::Result (*cuThreadExchangeStreamCaptureMode)(int *mode);
};

/// Loads and initialises the driver once (thread-safe). On failure records
/// TILE_ERROR_NO_DRIVER as "<where>: no CUDA driver: <reason>" and returns it.
int32_t getDriver(const char *where, const DriverApi **api);

/// getDriver, then makes a context current on this thread if none is: the
/// primary context of this thread's default device (mgpuSetDefaultDevice).
int32_t getDriverWithContext(const char *where, const DriverApi **api);

/// The driver if it has already been loaded successfully, else null; never
/// triggers loading (used to name error codes).
const DriverApi *loadedDriver();

/// The driver and this thread's current context for a call that runs on
/// every launch: where the driver is loaded and a context current, two
/// cheap calls and nothing formatted; otherwise getDriverWithContext, its
/// failures (and cuCtxGetCurrent's) recorded after the message prefix
/// `where()` builds (an object whose `text` member is the prefix, built only
/// on this slow path). False after recording an error.
template <typename WhereText>
bool driverAndContext(const DriverApi **api, cu::Context *context,
                      WhereText where) {
  *api = loadedDriver();
  *context = nullptr;
  if (*api && (*api)->cuCtxGetCurrent(context) == cu::kSuccess && *context)
    return true;
  auto text = where();
  if (getDriverWithContext(text.text, api))
    return false;
  cu::Result result = (*api)->cuCtxGetCurrent(context);
  if (result != cu::kSuccess) {
    setDriverError(text.text, "cuCtxGetCurrent", result);
    return false;
  }
  return true;
}

/// The encoder: the testing hook when installed, else the driver's (loading
/// it; failures recorded as in getDriver).
int32_t getEncoder(const char *where, TileTensorMapEncodeHook *encode);

/// The same for the im2col encoder.
int32_t getIm2colEncoder(const char *where,
                         TileTensorMapEncodeIm2colHook *encode);

/// The driver version the defect patch uses: the testing override, else
/// cuDriverGetVersion, else 0 when no driver is available.
int32_t effectiveDriverVersion();

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_DRIVERAPI_H
