// Every rule of tile.pipeline (PipelineOp.cpp), one misuse each: the
// construct generates the protocol, so none of it may be written by hand.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %true = arith.constant true
    scf.if %true {
      // expected-error @below {{pipeline-placement: tile.pipeline must sit directly in a gpu.func or gpu.launch body, not in 'scf.if'}}
    tile.pipeline (%n) stages(%s : !S) produce {
      ^bb0(%k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!S3 = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %s3 = tile.arena_view [4096] : !S3
    // expected-error @below {{pipeline-stages: stage buffer 1 has 3 stages, buffer 0 has 2; every buffer's outermost dimension is the stage count}}
    tile.pipeline (%n) stages(%s, %s3 : !S, !S3) produce {
    ^bb0(%k: index, %t: !T, %u: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %u: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-stages: in_flight = 2 with 2 stages; a consumer may keep at most S - 1 = 1 stages' reads in flight}}
    tile.pipeline (%n) stages(%s : !S) attributes {reads = #tile.consumer_reads<wgmma>, in_flight = 2} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-reads: in_flight = 1 needs reads = wgmma}}
    tile.pipeline (%n) stages(%s : !S) attributes {in_flight = 1} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-registers: producer_registers and consumer_registers come together}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 1, producer_registers = 40} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-registers: register reallocation needs specialized warpgroups (consumers >= 1)}}
    tile.pipeline (%n) stages(%s : !S) attributes {producer_registers = 40, consumer_registers = 232} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-registers: consumer_registers = 230; setmaxnreg takes a multiple of 8 in [24, 256]}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 2, producer_registers = 40, consumer_registers = 230} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-registers: 128 x (40 + 2 x 256) = 70656 registers exceed the CTA's 64512 (384 threads of 168 at entry)}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 2, producer_registers = 40, consumer_registers = 256} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // Within the SM's 65536 but past what 384 threads have at entry: the
    // second consumer's setmaxnreg.inc would wait forever.
    // expected-error @below {{pipeline-registers: 128 x (32 + 2 x 240) = 65536 registers exceed the CTA's 64512 (384 threads of 168 at entry)}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 2, producer_registers = 32, consumer_registers = 240} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-regions: consume argument 2 has type 'f32'; expected 'index' (the consumer warpgroup's index)}}
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: f32):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{stage: result shape [8, 32] must be the source shape [2, 8, 64] without its outermost dimension}}
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: memref<8x32xf32, #gpu.address_space<workgroup>>):
      tile.yield
    } consume {
    ^bb0(%k: index, %t: memref<8x32xf32, #gpu.address_space<workgroup>>, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0.0 : f32
    tile.pipeline (%n) stages(%s : !S) iter_args(%z : f32) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index, %acc: f32):
      // expected-error @below {{pipeline-regions: consume yields 0 value(s) of types (); expected ('f32')}}
      tile.yield
    } epilogue {
    ^bb0(%c: index, %acc: f32):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %bars = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      %true = arith.constant true
      %ticks = arith.constant 100 : index
      // expected-error @below {{pipeline-protocol: 'nvgpu.mbarrier.try_wait.parity' inside tile.pipeline; the pipeline generates its barriers, phases, byte counts and wgmma waits}}
      nvgpu.mbarrier.try_wait.parity %bars[%k], %true, %ticks : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {reads = #tile.consumer_reads<wgmma>} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      // expected-error @below {{pipeline-protocol: 'nvvm.wgmma.wait.group.sync.aligned' inside tile.pipeline}}
      nvvm.wgmma.wait.group.sync.aligned 0
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %bars = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      %c0 = arith.constant 0 : index
      // expected-error @below {{pipeline-copy: a pipeline load names no barrier; the construct completes it on the stage's full barrier}}
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bars[%c0]) : !T, !A, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %o = tile.arena_view [8192] : !T
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      // expected-error @below {{pipeline-copy: produce copies into a buffer that is not one of its stage views; a pipeline load fills the stage it is given}}
      tile.copy_async %o[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      // expected-error @below {{pipeline-copy: produce issues only loads (global to shared); a store belongs in consume or epilogue}}
      tile.copy_async %A[0, 0] [8, 64], %t[0, 0] [8, 64] : !A, !T
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 3 : i16
      // expected-error @below {{pipeline-cluster: a multicast load in a pipeline of cluster_size = 1; state the cluster the stage is shared across (cluster_size)}}
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-copy: produce issues no tile.copy_async load; a stage's full barrier would never complete}}
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      // expected-error @below {{pipeline-copy: 'memref.store' writes stage view 0 in produce; only tile.copy_async loads fill a stage}}
      memref.store %f, %t[%c0, %c0] : !T
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      // expected-error @below {{pipeline-stage-write: consume writes stage view 0 ('memref.store'); the next round's load overwrites it concurrently}}
      memref.store %f, %t[%c0, %c0] : !T
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A) kernel {
    %t = tile.arena_view [0] : !T
    // expected-error @below {{barrier: a load (global to shared) requires barrier(%group[%i]) to complete on}}
    tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-threads: the kernel's block size is 256 x 1 x 1 = 256 threads; consumers = 2 needs 128 x (2 + 1) = 384 (a producer warpgroup and 2 consumer warpgroups)}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 2} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
func.func @host(%A: !A, %n: index) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-threads: the kernel's block size is 128 x 1 x 1 = 128 threads; consumers = 1 needs 128 x (1 + 1) = 256}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 1} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.terminator
  }
  return
}

// -----

!A = memref<?x64xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      // expected-error @below {{pipeline-stage-write: consume writes stage view 0 ('tile.copy'); the next round's load overwrites it concurrently}}
      tile.copy %t[0, 0] [8, 64], %A[0, 0] [8, 64] {scope = "cta"} : !T, !A
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x64xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      // expected-error @below {{pipeline-copy: 'tile.copy' writes stage view 0 in produce; only tile.copy_async loads fill a stage}}
      tile.copy %t[0, 0] [8, 64], %A[0, 0] [8, 64] {scope = "cta"} : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-threads: consumers = 8 needs 128 x (8 + 1) threads; a block holds at most 1024 (consumers <= 7)}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 8} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// A block size whose thread count overflows is diagnosed, not multiplied.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
func.func @host(%A: !A, %n: index) {
  %c2 = arith.constant 2 : index
  %big = arith.constant -9223372036854775808 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c2)
             threads(%tx, %ty, %tz) in (%sx = %big, %sy = %c2, %sz = %c2) {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-threads: the kernel's block size is -9223372036854775808 x 2 x 2 (the product overflows); consumers = 1 needs 128 x (1 + 1) = 256}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 1} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.terminator
  }
  return
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-stages: in_flight = 9223372036854775807 with 2 stages}}
    tile.pipeline (%n) stages(%s : !S) attributes {reads = #tile.consumer_reads<wgmma>, in_flight = 9223372036854775807} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-cluster: cluster_size = 17; a cluster holds 1 to 16 CTAs}}
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 17} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-cluster: cluster_size = 2 but no load in produce multicasts; the CTAs of a cluster pipeline share the operands their multicast loads fill}}
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 1 : i16
      // expected-error @below {{pipeline-cluster: multicast mask 1 does not name every CTA of a cluster of 2 (mask 3); each CTA issues one slice of the shared stage}}
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.index_cast %k : index to i16
      // expected-error @below {{pipeline-cluster: the multicast mask is not a constant; a pipeline load multicasts to every CTA of the cluster (mask 3)}}
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 4} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 15 : i16
      // expected-error @below {{pipeline-cluster: the multicast load's shared box [6, 64] has outermost size 6, not a multiple of cluster_size = 4; each CTA of the cluster issues one of 4 equal slices}}
      tile.copy_async %t[0, 0] [6, 64], %A[0, 0] [6, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 4} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 15 : i16
      // expected-error @below {{pipeline-cluster: the multicast load's global box [2, 256] has outermost size 2, not a multiple of cluster_size = 4; each CTA of the cluster issues one of 4 equal slices}}
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [2, 256] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel attributes {known_cluster_size = array<i32: 4, 1, 1>} {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-cluster: the kernel's cluster is 4 x 1 x 1 CTAs; the pipeline's cluster_size is 2}}
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 3 : i16
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// The cluster barriers and remote releases of a cluster pipeline are the
// construct's too.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 3 : i16
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      // expected-error @below {{pipeline-protocol: 'nvvm.cluster.arrive' inside tile.pipeline}}
      nvvm.cluster.arrive
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %bars = nvgpu.mbarrier.create -> !bars
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 3 : i16
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-error @below {{pipeline-protocol: 'tile.arrive_remote' inside tile.pipeline}}
      tile.arrive_remote %bars[%c0] on(%c1) : !bars
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// A persistent pipeline's regions take the tile first: produce without it.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %tiles: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-regions: produce takes the tile, the iteration and one stage view per buffer (3 arguments), has 2}}
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%tile: index, %c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// ... and the epilogue, which runs once per tile, takes it too.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %tiles: index) kernel {
    %s = tile.arena_view [0] : !S
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{pipeline-regions: epilogue takes 3 argument(s) (the tile, the consumer warpgroup's index, a carried value), has 2}}
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%zero : f32) produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index, %acc: f32):
      tile.yield %acc : f32
    } epilogue {
    ^bb0(%c: index, %acc: f32):
      tile.yield
    }
    gpu.return
  }
}

// -----

// A persistent pipeline's stage views follow the tile and the iteration: a
// write into one in produce is still caught.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %tiles: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      // expected-error @below {{pipeline-copy: 'memref.store' writes stage view 0 in produce; only tile.copy_async loads fill a stage}}
      memref.store %v, %t[%c0, %c0] : !T
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%tile: index, %c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// ... and so is a write in consume.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %tiles: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index):
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      // expected-error @below {{pipeline-stage-write: consume writes stage view 0 ('memref.store'); the next round's load overwrites it concurrently}}
      memref.store %v, %t[%c0, %c0] : !T
      tile.yield
    } epilogue {
    ^bb0(%tile: index, %c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-iterations: both (%count) and an iterations region; a pipeline states its iterations once}}
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        tile.yield %i, %n : index, index
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-iterations: neither (%count) nor an iterations region; a pipeline states its iterations once}}
    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-iterations: an iterations region gives each work tile its own iterations; it needs tiles(%tiles) (without tiles, state (%count))}}
    tile.pipeline  stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        tile.yield %i, %n : index, index
      } produce {
      ^bb0(%k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-iterations: an iterations region needs the warp-specialized form (consumers >= 1)}}
    tile.pipeline  tiles(%n) stages(%s : !S)
    iterations {
      ^bb0(%i: index):
        tile.yield %i, %n : index, index
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S

    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        // Reads are allowed; a write is not.
        %end = memref.load %ranges[%i] : memref<?xindex>
        // expected-error @below {{pipeline-iterations: 'memref.store' in the iterations region; the producer and every consumer evaluate it, so it computes the range and the tile's values with no memory effect but reads}}
        memref.store %i, %ranges[%end] : memref<?xindex>
        tile.yield %i, %end : index, index
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-regions: iterations takes 1 argument(s) (the tile), has 2}}
    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index, %j: index):
        tile.yield %i, %j : index, index
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %ranges: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S

    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        // expected-error @below {{pipeline-regions: iterations yields 1 value(s) of types ('index'); expected ('index', 'index')}}
        tile.yield %i : index
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// A tile value is an index.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        %v = arith.constant 3 : i32
        // expected-error @below {{pipeline-regions: iterations yields 3 value(s) of types ('index', 'index', 'i32'); expected ('index', 'index', 'index')}}
        tile.yield %i, %i, %v : index, index, i32
      } produce {
      ^bb0(%tile: index, %v0: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %v0: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %v0: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// Every region takes the tile's values after the tile.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-regions: produce takes the tile, its values, the iteration and one stage view per buffer (5 arguments), has 3}}
    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        tile.yield %i, %i, %i, %i : index, index, index, index
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-regions: epilogue takes 3 argument(s) (the tile, a tile value, the consumer warpgroup's index), has 2}}
    tile.pipeline  tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
      ^bb0(%i: index):
        tile.yield %i, %i, %i : index, index, index
      } produce {
      ^bb0(%tile: index, %v: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %v: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// Turns between consumers need work tiles to take turns on.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-schedule: schedule = pingpong takes the work tiles in turn between consumer warpgroups; it needs the persistent form (tiles)}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 2, schedule = #tile.consumer_schedule<pingpong>} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// ... and two consumers to take them.
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %tiles: index) kernel {
    %s = tile.arena_view [0] : !S
    // expected-error @below {{pipeline-schedule: schedule = pingpong takes the work tiles in turn between consumer warpgroups; this pipeline has consumers = 1, it needs consumers >= 2}}
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) attributes {consumers = 1, schedule = #tile.consumer_schedule<pingpong>} produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%tile: index, %c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    // expected-error @below {{pipeline-tile-loads: tile_loads loads a tile's buffers once for every consumer: it needs the persistent (tiles), warp-specialized (consumers >= 1) form with every consumer on every tile (schedule = cooperative)}}
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0:
        tile.copy_async %q[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    // expected-error @below {{pipeline-tile-loads: tile_loads loads a tile's buffers once for every consumer: it needs the persistent (tiles), warp-specialized (consumers >= 1) form with every consumer on every tile (schedule = cooperative)}}
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 2, schedule = #tile.consumer_schedule<pingpong>}
    tile_loads {
      ^bb0(%tile: index):
        tile.copy_async %q[0, 0] [8, 64], %A[%tile, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index

    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        %v = tile.stage %s[%c0] : !S -> !T
        // expected-error @below {{pipeline-tile-loads: tile_loads loads into stage buffer 0; a tile's buffers are loaded once per tile, a stage's in produce}}
        tile.copy_async %v[0, 0] [8, 64], %A[%tile, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        // expected-error @below {{pipeline-tile-loads: a tile load names no barrier; the construct completes it on the tile's full barrier}}
        tile.copy_async %q[0, 0] [8, 64], %A[%tile, 0] [8, 64] barrier(%bar[%c0]) : !T, !A, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index

    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        %f = arith.constant 1.0 : f32
        // expected-error @below {{pipeline-tile-loads: 'memref.store' writes memory in tile_loads; only its tile.copy_async loads fill the tile's buffers}}
        memref.store %f, %out[%tile] : memref<?xf32>
        tile.copy_async %q[0, 0] [8, 64], %A[%tile, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index

    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        // expected-error @below {{pipeline-tile-loads: tile_loads issues only loads (global to shared)}}
        tile.copy_async %A[%tile, 0] [8, 64], %q[0, 0] [8, 64] : !A, !T
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    // expected-error @below {{pipeline-tile-loads: tile_loads issues no tile.copy_async load; the tile's full barrier would never complete}}
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    // expected-error @below {{pipeline-regions: tile_loads takes 1 argument(s) (the tile), has 0}}
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0:
        tile.copy_async %q[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-held-stage: the epilogue holds the stages of the last in_flight
// iterations only.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %c0 = arith.constant 0 : index
    tile.pipeline (%n) stages(%s : !S)
        attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
      ^bb0(%k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        // expected-error @below {{pipeline-held-stage: tile.held_stage 2 in the epilogue names the tile's iteration count - 2, but with in_flight = 1 the epilogue holds only the last 1}}
        %held = tile.held_stage 2
        %v = tile.stage %s[%held] : !S -> !T
        %x = memref.load %v[%c0, %c0] : !T
        memref.store %x, %out[%c0] : memref<?xf32>
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-held-stage: in consume, iterations k - in_flight to k are held.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %c0 = arith.constant 0 : index
    tile.pipeline (%n) stages(%s : !S)
        attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
      ^bb0(%k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        // expected-error @below {{pipeline-held-stage: tile.held_stage 2 in consume names iteration k - 2, but with in_flight = 1 the consumer holds only iterations k - 1 to k}}
        %held = tile.held_stage 2
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-held-stage: outside any pipeline.
gpu.module @k {
  gpu.func @f() kernel {
    // expected-error @below {{pipeline-held-stage: tile.held_stage is used outside a pipeline's consume and epilogue regions; only there does the consumer hold stages}}
    %held = tile.held_stage 0
    gpu.return
  }
}

// -----

// pipeline-held-stage: the epilogue runs after the last iteration, so
// held_stage 0 (an iteration past the last) names no stage.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S)
        attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
      ^bb0(%k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        // expected-error @below {{pipeline-held-stage: tile.held_stage 0 in the epilogue names the tile's iteration count - 0, but with in_flight = 1 the epilogue holds only the last 1}}
        %held = tile.held_stage 0
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-read-lags: one lag per stage buffer.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    // expected-error @below {{pipeline-read-lags: read_lags has 1 entries for 2 stage buffers; it gives each stage buffer its lag}}
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, read_lags = array<i64: 1>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-read-lags: the software-pipelined form refills a stage as a whole.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    // expected-error @below {{pipeline-read-lags: read_lags needs the warp-specialized form (consumers >= 1); the software-pipelined form refills a stage as a whole}}
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {read_lags = array<i64: 0, 1>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-read-lags: a lag is not negative.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    // expected-error @below {{pipeline-read-lags: read_lags[1] = -1 is negative; consume(k) reads iterations at or before k}}
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, read_lags = array<i64: 0, -1>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-read-lags: lag + in_flight stages held, plus the one being read,
// must leave the producer a stage to fill.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    // expected-error @below {{pipeline-read-lags: read_lags[1] = 2 with in_flight = 1 holds 3 + 1 stages of buffer 1, but there are 3; lag + in_flight must be below the stage count, or the producer would wait for a stage no consumer releases}}
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 1, read_lags = array<i64: 0, 2>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-held-stage with read_lags: buffer 0 (lag 0, in_flight 0) holds
// only the current iteration, so iteration k - 1 is not held as its view.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, read_lags = array<i64: 0, 1>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        // expected-error @below {{pipeline-held-stage: tile.held_stage 1 views stage buffer 0 at iteration k - 1, but with read lag 0 and in_flight = 0 the consumer holds only its iterations k - 0 to k - 0}}
        %held = tile.held_stage 1
        %ok = tile.stage %r[%held] : !S -> !T
        %bad = tile.stage %s[%held] : !S -> !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-held-stage with read_lags: the epilogue holds buffer 1's last
// lag + in_flight = 1 iteration only.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    tile.pipeline (%n) tiles(%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, read_lags = array<i64: 0, 1>} produce {
      ^bb0(%tile: index, %k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %u: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        // expected-error @below {{pipeline-held-stage: tile.held_stage 2 views stage buffer 1 at the tile's iteration count - 2, but with read lag 1 and in_flight = 0 the epilogue holds only its last 1}}
        %held = tile.held_stage 2
        %v = tile.stage %r[%held] : !S -> !T
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-held-stage with read_lags: a held stage is only a stage view.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %out: memref<?xindex>) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, read_lags = array<i64: 0, 1>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        // expected-error @below {{pipeline-held-stage: with read_lags each stage buffer holds its own iterations, so a held stage is used only as a tile.stage view of a stage buffer; 'memref.store' uses it}}
        %held = tile.held_stage 1
        memref.store %held, %out[%c] : memref<?xindex>
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-read-lags: consumers in turns pass the turn on before the
// epilogue, which waits for the lagging buffers' last stages.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    // expected-error @below {{pipeline-read-lags: read_lags is not supported with schedule = pingpong: a consumer passes the turn on before its epilogue, which waits for the lagging buffers' last stages}}
    tile.pipeline (%n) tiles(%n) stages(%s, %r : !S, !S)
        attributes {consumers = 2, read_lags = array<i64: 0, 1>, schedule = #tile.consumer_schedule<pingpong>} produce {
      ^bb0(%tile: index, %k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %u: !T, %c: index):
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

// pipeline-read-lags before pipeline-held-stage: a held stage viewing a
// buffer without a lag is left to the pipeline's rule.
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    %r = tile.arena_view [6144] : !S
    // expected-error @below {{pipeline-read-lags: read_lags has 1 entries for 2 stage buffers; it gives each stage buffer its lag}}
    tile.pipeline (%n) stages(%s, %r : !S, !S)
        attributes {consumers = 1, read_lags = array<i64: 1>} produce {
      ^bb0(%k: index, %t: !T, %u: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.copy_async %u[0, 0] [8, 64], %A[8, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %u: !T, %c: index):
        %held = tile.held_stage 1
        %v = tile.stage %r[%held] : !S -> !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %b: i1, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        tile.copy_async %q[0, 0] [8, 64], %A[%tile, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        scf.if %b {
          // expected-error @below {{pipeline-tile-loads: tile.release_tile_loads marks where consume's reads of the tile_loads buffers end: it belongs directly in a pipeline's consume region (not nested), which runs it once per iteration}}
          tile.release_tile_loads
        }
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %b: i1, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        // expected-error @below {{pipeline-tile-loads: tile.release_tile_loads in a pipeline without tile_loads: there are no tile buffers to release}}
        tile.release_tile_loads
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %b: i1, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        tile.copy_async %q[0, 0] [8, 64], %A[%tile, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        // expected-error @below {{pipeline-tile-loads: tile.release_tile_loads appears more than once in consume; the buffers are released once per tile}}
        tile.release_tile_loads
        tile.release_tile_loads
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        tile.yield
      }
    gpu.return
  }
}

// -----

!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %n: index, %b: i1, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [4096] : !T
    %c0 = arith.constant 0 : index
    tile.pipeline (%n) tiles(%n) stages(%s : !S) attributes {consumers = 1}
    tile_loads {
      ^bb0(%tile: index):
        tile.copy_async %q[0, 0] [8, 64], %A[%tile, 0] [8, 64] : !T, !A
        tile.yield
      } produce {
      ^bb0(%tile: index, %k: index, %t: !T):
        tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%tile: index, %k: index, %t: !T, %c: index):
        // expected-error @below {{pipeline-tile-loads: tile.release_tile_loads releases the tile_loads buffers in the tile's last iteration, but the epilogue uses them}}
        tile.release_tile_loads
        tile.yield
      } epilogue {
      ^bb0(%tile: index, %c: index):
        %v = memref.load %q[%c0, %c0] : !T
        memref.store %v, %out[%c0] : memref<?xf32>
        tile.yield
      }
    gpu.return
  }
}
