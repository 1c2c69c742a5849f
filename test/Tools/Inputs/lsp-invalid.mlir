// A layout whose shape and strides differ in rank.
func.func @f(%a: memref<8xf16, #tile.layout<(8) : (1, 2)>>) {
  return
}
