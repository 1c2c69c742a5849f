"""How a library module of the catalog makes its entries (see __init__)."""


class Library:
    """One library's folders: the source folder (lib/...) first, then its
    headers (include/...) and any other folder whose code moves with it.
    A mutant's function is looked for in its hinted file first, then in
    every .cpp/.h file of these folders."""

    def __init__(self, *folders):
        self.folders = [f.rstrip("/") for f in folders]

    def mutant(self, id, file, pattern, replacement, why, function=None,
               **kw):
        """One entry; file is relative to the first folder, or to the
        repository when it names a folder ("include/tile/TMA/Limits.h")."""
        if "/" not in file:
            file = self.folders[0] + "/" + file
        d = dict(id=id, file=file, function=function, library=self.folders,
                 pattern=pattern, replacement=replacement, why=why)
        d.update(kw)
        return d
