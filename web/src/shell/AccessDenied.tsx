import Key from '@mui/icons-material/Key'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'

/** The whole page when the API refused it for want of the access token. */
export default function AccessDenied() {
  return (
    <Box role="alert" sx={{ height: '100vh', display: 'grid', placeItems: 'center', p: 3 }}>
      <Box sx={{ maxWidth: 560 }}>
        <Key sx={{ fontSize: 40, color: 'text.secondary' }} />
        <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
          This page needs the link vai playground printed, which carries an access token
        </Typography>
        <Typography variant="body1" sx={{ color: 'text.secondary', mt: 2 }}>
          Open the URL shown in the terminal where you started <code>vai playground</code>; it looks like <code>http://127.0.0.1:3333/?token=…</code>. Each
          start makes a new token, so after a restart use the new link.
        </Typography>
      </Box>
    </Box>
  )
}
