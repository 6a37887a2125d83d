// Where the test targets find the repository: the folder two levels above this file
// (Tests/TestSupport/RepositoryRoot.swift). Every suite that reads a file of the tree uses it.

import Foundation

/// The repository root, absolute, without a trailing slash.
public let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
