/// Stores a command has finished with, left for the process's exit to reclaim.
///
/// A catalogue's and an atlas's caches (index blocks, trie nodes, a name's places) are
/// destroyed one entry at a time when their last reference goes, through type metadata built
/// at run time: 0.4 to 0.6 M instructions at the end of `wx show "Springfield, Illinois"`, a
/// fifth of the command, for memory the kernel takes back at exit in one go. A command's
/// catalogue and atlas are kept here (closed: their GDBM handles are released as before) and
/// never destroyed. Only ``Context`` keeps them, once per command; `wx browse`, which reopens
/// a catalogue after each sync, does not.
enum ProcessLifetime {
  nonisolated(unsafe) private static var kept: [AnyObject] = []

  static func keep(_ object: AnyObject) { kept.append(object) }
}
