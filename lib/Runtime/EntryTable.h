//===- EntryTable.h - Open-addressing table of heap entries ------*- C++
//-*-===//
//
// The runtime's caches (encoded tensor maps, launch counts per site) look
// entries up on every launch, so a hit must not allocate: entries are
// separately allocated and never move, and the table holds pointers to them,
// probed linearly from the entry's hash, at most half full. Callers provide
// the locking; `Entry` has a `uint64_t hash` member.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_ENTRYTABLE_H
#define TILE_LIB_RUNTIME_ENTRYTABLE_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace tile::runtime {

template <typename Entry, size_t InitialCapacity>
class EntryTable {
public:
  /// The entry with `hash` for which `matches(entry)` holds, or null.
  template <typename Match>
  Entry *find(uint64_t hash, Match matches) const {
    if (capacity == 0)
      return nullptr;
    for (size_t i = hash & (capacity - 1);; i = (i + 1) & (capacity - 1)) {
      Entry *entry = slots[i];
      if (!entry)
        return nullptr;
      if (entry->hash == hash && matches(*entry))
        return entry;
    }
  }

  /// Adds `entry` (its hash set); false when out of memory for the table.
  bool insert(Entry *entry) {
    if (!reserveOneMore())
      return false;
    place(slots, capacity, entry);
    ++count;
    return true;
  }

  /// Calls `release` on every entry and empties the table.
  template <typename Release>
  void clear(Release release) {
    for (size_t i = 0; i < capacity; ++i)
      if (slots[i])
        release(slots[i]);
    free(slots);
    slots = nullptr;
    capacity = 0;
    count = 0;
  }

  size_t size() const { return count; }

private:
  static void place(Entry **table, size_t tableCapacity, Entry *entry) {
    size_t i = entry->hash & (tableCapacity - 1);
    while (table[i])
      i = (i + 1) & (tableCapacity - 1);
    table[i] = entry;
  }

  /// Keeps the load factor at most 1/2; false when out of memory.
  bool reserveOneMore() {
    if ((count + 1) * 2 <= capacity)
      return true;
    size_t newCapacity = capacity ? capacity * 2 : InitialCapacity;
    auto **table = static_cast<Entry **>(calloc(newCapacity, sizeof(Entry *)));
    if (!table)
      return false;
    for (size_t i = 0; i < capacity; ++i)
      if (slots[i])
        place(table, newCapacity, slots[i]);
    free(slots);
    slots = table;
    capacity = newCapacity;
    return true;
  }

  Entry **slots = nullptr;
  size_t capacity = 0; // a power of two, or 0
  size_t count = 0;
};

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_ENTRYTABLE_H
