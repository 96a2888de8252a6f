/// Searches and comparisons of lists of model references by identity, on the references' words.
///
/// Reading an element of a list whose type is generic (code generic over the app's models, which the compiler
/// does not specialise across modules) copies it through the type's metadata: a retain, a release and a lookup
/// per element. Comparing the words the references are costs none of that, so that keeping the inverse of a
/// list of thousands in step on each edit stays a pass over memory.
enum ModelReferences {
    /// How many references `old` and `new` start with alike, and how many of the rest they end with alike.
    static func commonEnds<Model: AnyObject>(_ old: [Model], _ new: [Model]) -> (prefix: Int, suffix: Int) {
        words(of: old) { old in
            words(of: new) { new in
                CommonEnds.of(oldCount: old.count, newCount: new.count) { old[$0] == new[$1] }
            }
        }
    }

    /// The positions of every reference to `model` in `list`, ascending.
    static func indices<Model: AnyObject>(of model: AnyObject, in list: [Model]) -> [Int] {
        let word = UInt(bitPattern: ObjectIdentifier(model))
        return words(of: list) { words in
            var found: [Int] = []
            for index in 0..<words.count where words[index] == word { found.append(index) }
            return found
        }
    }

    /// The words of `list`'s references, read in place.
    private struct Words {
        let bytes: UnsafeRawBufferPointer
        var count: Int { bytes.count / MemoryLayout<UInt>.stride }
        subscript(index: Int) -> UInt {
            bytes.load(fromByteOffset: index * MemoryLayout<UInt>.stride, as: UInt.self)
        }
    }

    /// `list`'s references as words, for `body`.
    private static func words<Model: AnyObject, Result>(of list: [Model], _ body: (Words) -> Result) -> Result
    {
        // A class reference is one word (`Model: AnyObject`).
        precondition(MemoryLayout<Model>.stride == MemoryLayout<UInt>.stride, "a model reference is one word")
        return list.withUnsafeBytes { body(Words(bytes: $0)) }
    }
}
