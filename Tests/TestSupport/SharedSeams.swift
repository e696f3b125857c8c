import Foundation

/// The library's Linux seams (`LinuxSeams`) are process-wide, and every test target runs in one
/// process: a test that sets them and makes an `Auth` holds this lock meanwhile, so that another
/// test's settings never reach its `Auth`.
public let linuxSeamsLock = NSLock()
