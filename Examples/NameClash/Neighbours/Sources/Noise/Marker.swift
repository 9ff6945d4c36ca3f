/// A type of its own, so the module is not empty.
public enum Marker {}
