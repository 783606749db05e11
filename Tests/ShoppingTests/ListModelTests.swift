import Testing
import ShoppingKit

@Suite struct ListModelTests {
    static func entry(_ kind: JournalEntry.Kind, _ item: String? = nil, text: String? = nil, after: String? = nil, at time: Int64,
                      id: String? = nil) -> JournalEntry {
        JournalEntry(id: id ?? "\(time)-\(kind)-\(item ?? "")", kind: kind, itemID: item, text: text, after: after, timestamp: time, author: "t")
    }

    @Test func twoItemsAddedAfterTheSameOneKeepOneOrderEverywhere() {
        let base = [Self.entry(.add, "milk", text: "milk", at: 1)]
        let alice = Self.entry(.add, "bread", text: "bread", after: "milk", at: 10, id: "a")
        let bob = Self.entry(.add, "eggs", text: "eggs", after: "milk", at: 10, id: "b")
        var first = ShoppingListView(name: "L", color: "c")
        first.apply(base + [alice, bob])
        var second = ShoppingListView(name: "L", color: "c")
        second.apply([bob] + base + [alice])
        #expect(first.items.map(\.text) == second.items.map(\.text))
        #expect(first.items.count == 3 && first.items.first?.text == "milk")
    }

    @Test func renamesAreLastWriterWins() {
        var view = ShoppingListView(name: "L", color: "c")
        view.apply([Self.entry(.rename, text: "Later", at: 20), Self.entry(.rename, text: "Earlier", at: 10)])
        #expect(view.name == "Later")
    }

    @Test func compactionRemovesOnlyOldBoughtOrDeletedItems() {
        let day: Int64 = 24 * 3600 * 1000
        let now = 30 * day
        let entries = [
            Self.entry(.add, "old-bought", text: "a", at: 1 * day), Self.entry(.check, "old-bought", at: 2 * day),
            Self.entry(.add, "old-deleted", text: "b", at: 1 * day), Self.entry(.delete, "old-deleted", at: 2 * day),
            Self.entry(.add, "old-open", text: "c", at: 1 * day),
            Self.entry(.add, "recent-bought", text: "d", at: 20 * day), Self.entry(.check, "recent-bought", at: 21 * day),
            Self.entry(.add, "unchecked-later", text: "e", at: 1 * day), Self.entry(.check, "unchecked-later", at: 2 * day),
            Self.entry(.uncheck, "unchecked-later", at: 3 * day),
        ]
        let removed = Set(Compaction.removable(entries, before: now - Compaction.minimumAge).compactMap(\.itemID))
        #expect(removed == ["old-bought", "old-deleted"])
        #expect(Compaction.removable(entries, before: now - Compaction.minimumAge).allSatisfy { $0.timestamp < now - Compaction.minimumAge })
        // The view is the same with or without the removed entries, but for what they removed.
        var full = ShoppingListView(name: "L", color: "c")
        full.apply(entries)
        var compacted = ShoppingListView(name: "L", color: "c")
        compacted.apply(entries.filter { !removed.contains($0.itemID ?? "") })
        #expect(compacted.items.map(\.text) == full.items.filter { $0.id != "old-bought" }.map(\.text))
    }
}
