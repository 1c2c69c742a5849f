// tile.grouped_tile's group is at least one row.
// RUN: tile-opt %s -verify-diagnostics -o /dev/null

func.func @no_rows(%i: index, %rows: index, %cols: index) -> (index, index) {
  // expected-error @below {{'tile.grouped_tile' op attribute 'group_rows' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %row, %col = tile.grouped_tile %i of (%rows, %cols) {group_rows = 0}
  return %row, %col : index, index
}
