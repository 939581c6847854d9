package blocks

/* want `guardlint:ignore-file unused suppresses nothing in this file` */ //guardlint:ignore-file unused nothing here fails

/* want `guardlint:ignore-file needs an invariant id and a reason: //guardlint:ignore-file <id> <reason>` */ //guardlint:ignore-file
