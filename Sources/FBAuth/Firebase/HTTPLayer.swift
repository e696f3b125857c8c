// The HTTP exchange and JSON (FBAuthHTTP) are part of what FBAuth's clients use with it: the
// transport seam they may replace, the JSON of claims and answers.
@_exported import FBAuthHTTP
