//! The one map from the Material icon names the tool catalog declares (each tool's `icon`, from
//! server/tools/src and the engine's control tools) to icon components. Nothing else maps tools
//! to icons: nodes and the palette look the name up here. Imported by path so the bundle holds
//! only these; icons.test.ts fails when a tool declares a name missing here.
import type SvgIcon from '@mui/material/SvgIcon'
import AccountTree from '@mui/icons-material/AccountTree'
import AltRoute from '@mui/icons-material/AltRoute'
import AutoAwesome from '@mui/icons-material/AutoAwesome'
import Block from '@mui/icons-material/Block'
import Build from '@mui/icons-material/Build'
import Calculate from '@mui/icons-material/Calculate'
import CallSplit from '@mui/icons-material/CallSplit'
import CompareArrows from '@mui/icons-material/CompareArrows'
import ContentCut from '@mui/icons-material/ContentCut'
import Extension from '@mui/icons-material/Extension'
import FilterAlt from '@mui/icons-material/FilterAlt'
import Grading from '@mui/icons-material/Grading'
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined'
import Http from '@mui/icons-material/Http'
import Input from '@mui/icons-material/Input'
import Loop from '@mui/icons-material/Loop'
import ManageSearch from '@mui/icons-material/ManageSearch'
import Memory from '@mui/icons-material/Memory'
import MergeType from '@mui/icons-material/MergeType'
import Output from '@mui/icons-material/Output'
import PanTool from '@mui/icons-material/PanTool'
import School from '@mui/icons-material/School'
import SmartToy from '@mui/icons-material/SmartToy'
import Search from '@mui/icons-material/Search'
import Sort from '@mui/icons-material/Sort'
import Storage from '@mui/icons-material/Storage'
import TextSnippet from '@mui/icons-material/TextSnippet'
import Transform from '@mui/icons-material/Transform'
import UploadFile from '@mui/icons-material/UploadFile'
import ViewList from '@mui/icons-material/ViewList'

export type IconComponent = typeof SvgIcon

const ICONS: Record<string, IconComponent> = {
  AccountTree,
  AltRoute,
  AutoAwesome,
  Block,
  Build,
  Calculate,
  CallSplit,
  CompareArrows,
  ContentCut,
  FilterAlt,
  Grading,
  HelpOutline,
  Http,
  Input,
  Loop,
  ManageSearch,
  Memory,
  MergeType,
  Output,
  PanTool,
  School,
  Search,
  SmartToy,
  Sort,
  Storage,
  TextSnippet,
  Transform,
  UploadFile,
  ViewList,
}

export function iconFor(name: string): IconComponent {
  return Object.hasOwn(ICONS, name) ? ICONS[name] : Extension
}
