extension PersistentModel {
    /// The value at `keyPath`, as SwiftData's `getValue(forKey:)`: seed code such as
    /// `updatedHero.getValue(forKey: \.power)` ports unchanged.
    public func getValue<Value>(forKey keyPath: KeyPath<Self, Value>) -> Value {
        self[keyPath: keyPath]
    }

    /// Sets the value at `keyPath`, as SwiftData's `setValue(forKey:to:)`.
    public mutating func setValue<Value>(forKey keyPath: WritableKeyPath<Self, Value>, to value: Value) {
        self[keyPath: keyPath] = value
    }
}
