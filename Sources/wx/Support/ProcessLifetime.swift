/// Stores a command has finished with, left for the process's exit to reclaim.
///
/// A catalogue's and an atlas's caches (index blocks, trie nodes, a name's places) are
/// destroyed one entry at a time when their last reference goes, through type metadata built
/// at run time: 0.4 to 0.6 M instructions at the end of `wx show "Springfield, Illinois"`, a
/// fifth of the command, for memory the kernel takes back at exit in one go. A command's
/// catalogue and atlas are given one reference more here (closed as before: their GDBM handles
/// are released) and so never destroyed. Nothing is shared between threads (in-process tests
/// run commands in parallel); only ``Context`` keeps stores, once per command, and `wx
/// browse`, which reopens a catalogue after each sync, keeps none.
enum ProcessLifetime {
  static func keep(_ object: AnyObject) { _ = Unmanaged.passRetained(object) }
}
