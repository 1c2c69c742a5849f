// Pipelines with constant trip counts 0, 1, S, S + 1 and more: tile-verify-async
// follows every iteration of the generated loops (stage indices and phases
// known), and finds the generated protocol clean in both forms; the
// byte count each arrival announces is the loads' planned bytes.
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null 2>&1 | count 0
// RUN: tile-opt %s --tile-expand-pipelines --tile-report-copy-plans -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx | FileCheck %s --check-prefix=TX
// PLAN: "direction":"g2s","selected":"tma"{{.*}}"bytes":2048
// TX-LABEL: gpu.func @sw_s2_n1
// TX: %[[B:.*]] = arith.constant 2048 : index
// TX-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %[[B]] :
// TX-LABEL: gpu.func @ws2_s2_n1

!A = memref<64x64xf32>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
!S1 = memref<1x8x64xf32, #gpu.address_space<workgroup>>
!S2 = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!S4 = memref<4x8x64xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sw_s2_n0(%A: !A, %B: !A) kernel {
      %n = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 0} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @ws2_s2_n0(%A: !A, %B: !A) kernel {
      %n = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 2} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @sw_s2_n1(%A: !A, %B: !A) kernel {
      %n = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 0} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @ws2_s2_n1(%A: !A, %B: !A) kernel {
      %n = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 2} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @sw_s2_n2(%A: !A, %B: !A) kernel {
      %n = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 0} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @ws2_s2_n2(%A: !A, %B: !A) kernel {
      %n = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 2} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @sw_s2_n3(%A: !A, %B: !A) kernel {
      %n = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 0} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @ws2_s2_n3(%A: !A, %B: !A) kernel {
      %n = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 2} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @sw_s2_n5(%A: !A, %B: !A) kernel {
      %n = arith.constant 5 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 0} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @ws2_s2_n5(%A: !A, %B: !A) kernel {
      %n = arith.constant 5 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S2
      tile.pipeline (%n) stages(%s : !S2) attributes {consumers = 2} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @ws1_s4_n9_wgmma(%A: !A, %B: !A) kernel {
      %n = arith.constant 9 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S4
      tile.pipeline (%n) stages(%s : !S4) attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 2} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
    gpu.func @sw_s1_n4(%A: !A, %B: !A) kernel {
      %n = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !S1
      tile.pipeline (%n) stages(%s : !S1) attributes {consumers = 0} produce {
      ^bb0(%k: index, %t: !T):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %t: !T, %c: index):
        %row = arith.muli %k, %c8 : index
        tile.copy %B[%row, 0] [8, 64], %t[0, 0] [8, 64] {scope = "warpgroup"} : !A, !T
        tile.yield
      } epilogue {
      ^bb0(%c: index):
        tile.yield
      }
      gpu.return
    }
  }
}
