import Testing
import WXCore

@testable import wx

/// Runs a command line the fast path takes in this process, against `home`'s state folder, on
/// a terminal of `width` columns (nil: a pipe) that shows Unicode unless `unicode` is false or
/// `--ascii` is given, coloured only with `--color always`, at the harness's pinned time: what
/// the binary would print there, as its console would write it (escaped, cut to the width),
/// and its exit status. No process is spawned: width and escaping are tested on the views and
/// the console themselves. The catalogue must exist (nothing is seeded in-process: seed with
/// `home.wx("list")`), and no atlas is opened (the state folder is given no data to build one).
func runInProcess(_ args: [String], in home: TempHome, width: Int? = nil, unicode: Bool = true) throws -> Run {
  let request = try #require(FastPath.parse(args) as? any OutputRequest, "\(args) is not a command line the fast path takes")
  let display = request.output.display
  let console = Console(capturing: Terminal(color: display.color == .always, unicode: unicode && !display.ascii, width: width))
  let now = Int64(TempHome.sampleNow)!
  let ctx = Context(
    home: Home(directory: home.path, sampleCandidates: [], lockDeadline: 5), console: console, terminal: console.terminal,
    now: now, pinnedNow: now)
  var status: Int32 = 0
  do { try request.show(in: ctx) } catch { status = ExitStatus.report(error, console).rawValue }
  return Run(status: status, stdout: console.standardOutput, stderr: console.standardError)
}
