//===- ClusterRules.h - Cluster barriers and multicast lifetime -*- C++ -*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md):
// the rules that concern the CTAs of a cluster rather than one thread.
//
//  * async-cluster-barrier: a cluster barrier (nvvm.cluster.arrive, its
//    relaxed form, nvvm.cluster.wait) completes only when every thread of
//    every CTA of the cluster arrived, so it must not sit under control flow
//    whose condition depends on the thread or on the CTA (thread ids, lane,
//    block ids, the CTA's rank in the cluster): the threads that skip it
//    leave the others waiting.
//  * async-cluster-exit: a multicast load writes the shared memory and
//    signals the mbarrier of every CTA in its mask, peers included; a kernel
//    that multicasts must end with a cluster barrier after its last
//    multicast, or a CTA may exit (and its shared memory be reassigned) while
//    a peer's copy still writes into it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_CLUSTERRULES_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_CLUSTERRULES_H

#include "mlir/IR/Region.h"

namespace mlir::tile::async_protocol {

/// Reports async-cluster-barrier and async-cluster-exit in the kernel `body`.
/// Returns false where it reported.
bool checkClusterRules(Region &body);

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_CLUSTERRULES_H
