import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createTheme, MantineProvider, type MantineColorSchemeManager } from '@mantine/core';
import './mantineStyles.js';
import { App } from './App.js';
import { I18nProvider, startingCatalogue } from './i18n.js';
import './styles.css';

/** Mantine keeps the colour scheme in localStorage by default; the back-office keeps nothing in storage. */
const inMemoryColorScheme: MantineColorSchemeManager = {
  get: (defaultValue) => defaultValue,
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};

/**
 * Mantine renders a modal's title bar as a <header>, which outside a main, nav, article, aside or named section is a
 * banner landmark: with a dialog open the page had two banners (axe's landmark-no-duplicate-banner). A dialog's title
 * bar is no banner, so it is a plain <div>; the dialog keeps its role and its name from the title.
 */
const theme = createTheme({ components: { ModalHeader: { defaultProps: { component: 'div' } } } });

// The gateway's CSP (style-src 'self') refuses <style> elements, so Mantine
// writes none: no global classes (hiddenFrom/visibleFrom, unused) and no CSS
// variables, since the default theme's are all in @mantine/core/styles.css.
void startingCatalogue().then((start) =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} colorSchemeManager={inMemoryColorScheme} withGlobalClasses={false} withCssVariables={false}>
        <I18nProvider start={start}>
          <App />
        </I18nProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
