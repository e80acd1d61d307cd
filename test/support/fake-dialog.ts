/**
 * A fake `electron.dialog` for the unit tests of the main-process code that holds native dialogs
 * (src/layers/driver/main-modals.ts): every async dialog resolves canceled, every Sync one answers at once.
 */
const canceled = () => Promise.resolve({ canceled: true, filePaths: [] })

export const fakeDialog = () => ({
  showMessageBox: canceled,
  showMessageBoxSync: () => 0,
  showOpenDialog: canceled,
  showOpenDialogSync: () => undefined,
  showSaveDialog: canceled,
  showSaveDialogSync: () => undefined
})
