/// What a person can do about a failure. WXCore names it; the front end words it in its own
/// terms (a command, an option, an environment variable), so no CLI word lives in WXCore.
package enum Remedy: Sendable, Equatable {
  /// Point the program at another state folder: this one is not a folder, or under a file.
  case useAFolder
  /// Point the program at a folder it may write in: this one is read-only.
  case useAWritableFolder
  /// Point the program at a private state folder (0700): this one is shared or exposed.
  case useAPrivateFolder
  /// Inspect the state folder's stores (and repair them).
  case inspect
  /// Repair the damaged store.
  case repair
  /// Remove the file that stands where the lock belongs, or repair.
  case removeOrRepair
  /// Repair, which sets the file aside.
  case repairSetsItAside
  /// Download the catalogue.
  case sync
  /// Download the catalogue, or say where the bundled sample is.
  case syncOrFindTheSample
  /// Say where the shipped data (the atlas) is.
  case findTheData
  /// The data shipped with the program is damaged: install it again (or point at intact data).
  case reinstall
  /// Give the provider an API key.
  case giveAKey
  /// Check the API key given.
  case checkTheKey
  /// Accept a catalogue much smaller than the current one.
  case allowShrink
  /// Ask for more records a page.
  case largerPages
}
