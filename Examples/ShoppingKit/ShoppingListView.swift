/// A list as its journal makes it: the name, the color and the items in order.
public struct ShoppingListView: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var id: String
        public var text: String
        public var checked: Bool
    }

    public var name: String
    public var color: String
    /// Every item ever added, deleted ones kept hidden so that items placed after them keep their place.
    private var all: [(item: Item, deleted: Bool)] = []
    /// The items in order.
    public var items: [Item] { all.filter { !$0.deleted }.map(\.item) }

    public static func == (lhs: ShoppingListView, rhs: ShoppingListView) -> Bool {
        lhs.name == rhs.name && lhs.color == rhs.color && lhs.items == rhs.items
    }

    public init(name: String, color: String) {
        self.name = name
        self.color = color
    }

    /// Applies entries in journal order: first every add (an add goes right after the item it
    /// follows, or first, so two items added after the same one end up in the same order on every
    /// device), then the other entries, so a check from a device whose clock runs behind still finds
    /// its item; rename and recolor are last-writer-wins by that order.
    public mutating func apply(_ entries: [JournalEntry]) {
        let ordered = entries.sorted(by: JournalEntry.order)
        for entry in ordered where entry.kind == .add { apply(entry) }
        for entry in ordered where entry.kind != .add { apply(entry) }
    }

    mutating func apply(_ entry: JournalEntry) {
        switch entry.kind {
        case .add:
            guard let id = entry.itemID, !all.contains(where: { $0.item.id == id }) else { return }
            let item = (Item(id: id, text: entry.text ?? "", checked: false), false)
            if let after = entry.after, let index = all.firstIndex(where: { $0.item.id == after }) {
                all.insert(item, at: index + 1)
            } else if entry.after == nil {
                all.insert(item, at: 0)
            } else {
                all.append(item)   // its predecessor was compacted away: the end
            }
        case .check, .uncheck:
            if let index = all.firstIndex(where: { $0.item.id == entry.itemID }) { all[index].item.checked = entry.kind == .check }
        case .delete:
            if let index = all.firstIndex(where: { $0.item.id == entry.itemID }) { all[index].deleted = true }
        case .rename:
            name = entry.text ?? name
        case .recolor:
            color = entry.text ?? color
        }
    }
}
