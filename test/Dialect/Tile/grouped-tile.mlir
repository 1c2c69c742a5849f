// tile.grouped_tile: with constant operands it folds with the order's model
// (include/tile/Schedule/TileOrder.h); its lowering computes the same tiles
// (the second run folds the lowered arithmetic).
// RUN: tile-opt %s -split-input-file --canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file --convert-tile-to-nvvm --canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file --convert-tile-to-nvvm --cse | FileCheck %s --check-prefix=LOWER

// A 5 x 3 grid in groups of 2 rows: position 7 is tile (3, 0), 13 is (4, 1)
// (the last group is row 4 alone), 5 is (1, 2).
// CHECK-LABEL: func.func @order
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: return %[[C3]], %[[C0]], %[[C4]], %[[C1]], %[[C1]], %[[C2]]
func.func @order() -> (index, index, index, index, index, index) {
  %r = arith.constant 5 : index
  %c = arith.constant 3 : index
  %i7 = arith.constant 7 : index
  %i13 = arith.constant 13 : index
  %i5 = arith.constant 5 : index
  %a, %b = tile.grouped_tile %i7 of (%r, %c) {group_rows = 2}
  %d, %e = tile.grouped_tile %i13 of (%r, %c) {group_rows = 2}
  %f, %g = tile.grouped_tile %i5 of (%r, %c) {group_rows = 2}
  return %a, %b, %d, %e, %f, %g : index, index, index, index, index, index
}

// -----

// Run-time operands: a group is min(8, rows) rows of every column.
// LOWER-LABEL: func.func @dynamic
// LOWER-SAME: (%[[I:.*]]: index, %[[R:.*]]: index, %[[C:.*]]: index)
// LOWER: %[[C8:.*]] = arith.constant 8 : index
// LOWER-NEXT: %[[H:.*]] = arith.minui %[[C8]], %[[R]] : index
// LOWER-NEXT: %[[IN:.*]] = arith.muli %[[H]], %[[C]] : index
// LOWER-NEXT: %[[G:.*]] = arith.divui %[[I]], %[[IN]] : index
// LOWER-NEXT: %[[FIRST:.*]] = arith.muli %[[G]], %[[H]] : index
// LOWER-NEXT: %[[LEFT:.*]] = arith.subi %[[R]], %[[FIRST]] : index
// LOWER-NEXT: %[[GH:.*]] = arith.minui %[[LEFT]], %[[H]] : index
// LOWER-NEXT: %[[W:.*]] = arith.remui %[[I]], %[[IN]] : index
// LOWER-NEXT: %[[RIG:.*]] = arith.remui %[[W]], %[[GH]] : index
// LOWER-NEXT: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[RIG]] : index
// LOWER-NEXT: %[[COL:.*]] = arith.divui %[[W]], %[[GH]] : index
// LOWER-NEXT: return %[[ROW]], %[[COL]]
func.func @dynamic(%i: index, %rows: index, %cols: index) -> (index, index) {
  %row, %col = tile.grouped_tile %i of (%rows, %cols) {group_rows = 8}
  return %row, %col : index, index
}
