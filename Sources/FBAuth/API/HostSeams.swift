// The seams `AuthHost` is made of live in FBAuthSupport, which the command line shares; a
// program that imports FBAuth gets them with it.
@_exported import protocol FBAuthSupport.WallClock
@_exported import struct FBAuthSupport.SystemClock
@_exported import protocol FBAuthSupport.InterruptSource
@_exported import protocol FBAuthSupport.InterruptWatch
@_exported import struct FBAuthSupport.SignalInterruptSource
@_exported import struct FBAuthSupport.NoInterrupts
@_exported import protocol FBAuthSupport.SecretTokens
@_exported import struct FBAuthSupport.SystemSecretTokens
@_exported import struct FBAuthSupport.RawEnvironment
