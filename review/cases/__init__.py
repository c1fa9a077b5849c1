"""The case work after an audit: the judge's decisions and their store, the corrected protocol, exports,
appeals and the training questions. Imports review.audit and review.game below it."""
