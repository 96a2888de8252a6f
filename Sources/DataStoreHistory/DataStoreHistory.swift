// One import for app code, as `import SwiftData` is: the model layer, the stores a default container uses,
// and SwiftData-shaped container and configuration initialisers.
@_exported public import DataStoreCore
@_exported public import DataStoreModels
@_exported public import InMemoryStorage
@_exported public import JSONFileStorage
